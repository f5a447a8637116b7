/** The list edits every rule editor offers (add, move, delete), as copies: the editors never change what they were given. */

export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const copy = [...items];
  if (to < 0 || to >= copy.length) return copy;
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

export function without<T>(items: readonly T[], at: number): T[] {
  return items.filter((_, index) => index !== at);
}

export function replaced<T>(items: readonly T[], at: number, item: T): T[] {
  return items.map((existing, index) => (index === at ? item : existing));
}

/** A name not yet among `taken`: `stem1`, `stem2`, … */
export function freshName(stem: string, taken: readonly string[]): string {
  for (let n = taken.length + 1; ; n++) if (!taken.includes(`${stem}${n}`)) return `${stem}${n}`;
}
