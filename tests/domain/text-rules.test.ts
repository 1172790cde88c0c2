import { describe, expect, it } from 'vitest';
import {
  hasControlCharacter,
  hasVisibleCharacter,
  maskControlCharacters,
  normalizeName,
} from '../../src/domain/text-rules';

describe('text rules', () => {
  it('refuses every control character but tab, line feed and carriage return, C1 included', () => {
    for (let code = 0; code <= 0x9f; code += 1) {
      const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
      const isAllowed = code === 0x09 || code === 0x0a || code === 0x0d;
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(
        isControl && !isAllowed,
      );
    }
    expect(hasControlCharacter('Café — ok ✓')).toBe(false);
    expect(maskControlCharacters('a\u0085b\u0000')).toBe('a?b?');
  });

  it('makes names that render alike equal', () => {
    const nfc = 'Caf\u00e9 Crew';
    for (const lookalike of [
      'Cafe\u0301 Crew',
      'Caf\u00e9\u200B Crew',
      'Caf\u00e9\u00A0Crew',
      '\uFEFFCaf\u00e9  Crew ',
      'Caf\u00e9\u200D Crew',
      'Caf\u00e9\u3000Crew\u2060',
    ])
      expect(normalizeName(lookalike), JSON.stringify(lookalike)).toBe(nfc);
  });

  it('keeps a joiner that joins two emoji into one', () => {
    expect(normalizeName('Dev \u{1F469}\u200D\u{1F4BB} team')).toBe(
      'Dev \u{1F469}\u200D\u{1F4BB} team',
    );
  });

  it('finds nothing visible in blanks, invisible characters or lone combining marks', () => {
    for (const blank of ['\u200B\u200B', '\u3164\u3164', '\u2800\u2800', '\u0301\u0301', '  '])
      expect(hasVisibleCharacter(normalizeName(blank)), JSON.stringify(blank)).toBe(false);
    for (const name of ['Al', '李明', '\u{1F600}!', '42'])
      expect(hasVisibleCharacter(normalizeName(name)), name).toBe(true);
  });
});
