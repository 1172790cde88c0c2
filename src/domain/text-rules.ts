// What text Hunch takes (docs/rules.md "Text"). Pure: the server's guard on every request, the
// wire schemas and the client's forms all ask here.

export const TEXT_MESSAGES = {
  controlCharacter: 'Must not contain control characters',
  displayNameInvisible: 'Display name must contain a visible character',
  groupNameInvisible: 'Group name must contain a visible character',
} as const;

// Every Unicode control character (general category Cc: C0, DEL and C1) but tab, line feed and
// carriage return (a description has lines). PostgreSQL refuses a NUL byte in text; the others
// only ever arrive by mistake or on purpose, and C1 ones (U+0080–U+009F) render as nothing.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Whether `text` holds a control character Hunch refuses. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** `text` with each refused control character shown as "?" (to name a key that holds one). */
export function maskControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTER.source, 'g'), '?');
}

// Characters that take no room on screen: format characters (zero-width space, non-joiner and
// joiner, word joiner, bidirectional marks and embeddings, the byte order mark, soft hyphen,
// invisible operators), the Hangul fillers and the blank Braille pattern that render as nothing.
// Two names that differ by one of them look the same, and a name made of them looks empty.
const INVISIBLE =
  /\u034F|\u17B4|\u17B5|\u180B|\u180C|\u180D|\u180F|[\u00AD\u061C\u115F\u1160\u180E\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/gu;
// A zero-width joiner is kept only where it joins two emoji into one (👩‍💻); anywhere else it
// is invisible too.
const STRAY_JOINER =
  /(?<![\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D|\u200D(?!\p{Extended_Pictographic})/gu;
// Any run of white space (JavaScript's \s: the no-break space, the ideographic space, line breaks…).
const WHITE_SPACE = /\s+/gu;

/**
 * A name as Hunch keeps it: composed (NFC, so "é" is one character however it was typed),
 * without invisible characters, each run of white space one plain space, trimmed. Names that
 * render alike are then equal (a public group's name is unique by it, without case).
 */
export function normalizeName(text: string): string {
  return text
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(STRAY_JOINER, '')
    .replace(WHITE_SPACE, ' ')
    .trim();
}

// A letter, a digit, a punctuation mark or a symbol: something that shows.
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** Whether a normalised name shows anything (combining marks alone, or blanks, do not). */
export function hasVisibleCharacter(name: string): boolean {
  return VISIBLE.test(name.replace(INVISIBLE, ''));
}
