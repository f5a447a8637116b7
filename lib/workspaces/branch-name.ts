/**
 * Whether `name` is a valid branch name by git's ref rules, as
 * `git check-ref-format --branch` judges it (a property test compares the two),
 * bounded to 255 bytes so that it fits in a key.
 */
export function isValidBranchName(name: string): boolean {
  if (name.length === 0 || Buffer.byteLength(name) > 255) return false;
  // git's rule against the ref "@" concerns whole ref names: "refs/heads/@" is valid, and `git branch @` makes it.
  if (name === 'HEAD' || name.startsWith('-')) return false;
  // Control characters, DEL, space and the characters git reserves for revision syntax.
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}
