/**
 * Branch names by git's ref rules, as `git check-ref-format --branch` judges
 * them (a property test compares the two), bounded to 255 bytes so that a
 * name fits in a key. The rules are two portable patterns, so that the
 * OpenAPI document states them as the Service-Branch header's schema.
 */

/** Characters a name may hold: none of control characters, DEL, space, or what git reserves for revision syntax (~ ^ : ? * [ \). */
export const branchNamePattern = /^[^\x00-\x20\x7f~\^:?*\[\\]+$/;

/**
 * Forms no name may take: a leading "-" or "/", a trailing "/" or ".", "..",
 * "@{", "//", a component starting with "." or ending with ".lock", and
 * "HEAD". git's rule against the ref "@" concerns whole ref names:
 * "refs/heads/@" is valid, and `git branch @` makes it.
 */
export const forbiddenBranchForms = /^[-\/]|[\/.]$|\.\.|@\{|\/\/|(^|\/)\.|\.lock(\/|$)|^HEAD$/;

export const maxBranchNameBytes = 255;

export const isValidBranchName = (name: string): boolean =>
  branchNamePattern.test(name) && !forbiddenBranchForms.test(name) && Buffer.byteLength(name) <= maxBranchNameBytes;
