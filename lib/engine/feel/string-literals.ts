/**
 * FEEL's string literals, apart from the parser (./parse.ts reads them with
 * this) so that code that reads literals without parsing FEEL bundles no
 * parser: the interchange formats' lists of literals, the console's clipboard.
 */

/**
 * What one escape of a string literal stands for (the text after the
 * backslash: `n`, `u00e9`, `"`), as FEEL reads it. Not one of FEEL's escapes:
 * kept as written, so that a pattern's `"\d"` reaches `matches` as \d (as the
 * DMN TCK expects).
 */
export function unescapedCharacter(escape: string): string {
  switch (escape[0]) {
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'u':
    case 'U': {
      // Past Unicode's last code point (\UFFFFFF) no character is meant: kept as written, as an escape FEEL does not know.
      const code = Number.parseInt(escape.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : `\\${escape}`;
    }
    case '"':
    case "'":
    case '\\':
      return escape;
    default:
      return `\\${escape}`;
  }
}

/** The text a FEEL string literal (with its quotes) stands for. */
export const unescapeString = (raw: string): string =>
  raw.slice(1, -1).replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}|.)/g, (_, escape: string) => unescapedCharacter(escape));
