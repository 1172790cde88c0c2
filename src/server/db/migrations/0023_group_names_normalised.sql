-- Group names are kept normalised (src/domain/text-rules.ts normalizeName: NFC, no invisible
-- characters, each run of white space one space, trimmed), so public names that render alike
-- clash on "groups_public_name_unique". The names stored before are
-- normalised here the same way, the rule written out in SQL as it stands today; a name that
-- would be left empty stays as it is.
DROP INDEX "groups_public_name_unique";--> statement-breakpoint
UPDATE "groups" SET "name" = "normalised", "updated_at" = now()
FROM (
  SELECT "id" AS "normalised_id", btrim(regexp_replace(regexp_replace(regexp_replace(
    normalize("name", NFC),
    '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]', '', 'g'),
    '(?<![\u2600-\u27BF\U0001F000-\U0001FAFF\uFE0F])\u200D|\u200D(?![\u2600-\u27BF\U0001F000-\U0001FAFF])', '', 'g'),
    '[\s\u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+', ' ', 'g'), ' ') AS "normalised"
  FROM "groups"
) AS "normalised_names"
WHERE "id" = "normalised_id" AND "normalised" <> '' AND "normalised" <> "name";--> statement-breakpoint
-- Public groups whose names now clash: the oldest keeps its name, each later one gets its id
-- after it ("Café Crew (12)"), so every one can still be found and joined by its name.
UPDATE "groups" SET "name" = "groups"."name" || ' (' || "groups"."id" || ')', "updated_at" = now()
FROM "groups" AS "older"
WHERE "groups"."privacy" = 'public' AND "older"."privacy" = 'public'
  AND "older"."id" < "groups"."id" AND lower("older"."name") = lower("groups"."name");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_public_name_unique" ON "groups" USING btree (lower("name")) WHERE "groups"."privacy" = 'public';
