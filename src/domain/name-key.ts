/**
 * The comparison key of a name that must be unique (docs/decisions.md "Look-alike names (issue 29)"). The display
 * form is stored as given; uniqueness compares this key, so a name that only differs from a taken one by invisible
 * characters, another kind of space, compatibility forms (fullwidth letters, ligatures) or case is the same name.
 */

/**
 * Characters that render as nothing: format characters (zero-width space and joiners, BOM, bidi controls, soft
 * hyphen, tags), the other default-ignorable code points (variation selectors, Hangul fillers, the combining
 * grapheme joiner) and control characters that are not whitespace (C0 and C1).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]|(?!\p{White_Space})\p{Cc}/gu;

/** Every Unicode whitespace (tab, line breaks, no-break space, the typographic spaces, ideographic space...). */
const WHITESPACE = /\p{White_Space}+/gu;

/**
 * NFKC, invisibles removed, every run of whitespace one space, trimmed, lower-cased (`toLowerCase` after NFKC, then
 * NFKC again: close to Unicode's NFKC_Casefold for the scripts in use, without full case folding, so "ß" and "ss"
 * stay two names). NFKC runs again after the removal because an invisible between a letter and its combining mark
 * keeps them from composing. Pure and stable: the migration that backfilled the stored keys calls it too, so a
 * change here needs a migration recomputing them.
 */
export function nameKey(display: string): string {
  const visible = display.normalize("NFKC").replace(INVISIBLE, "").normalize("NFKC");
  return visible.replace(WHITESPACE, " ").trim().toLowerCase().normalize("NFKC");
}
