/** Instants in a datetime-local field, which holds a time without its zone: the browser's own, both ways. */

/** An instant (ISO 8601) as a datetime-local field shows it; empty for none. */
export function localTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** What a datetime-local field holds, as the instant the API takes. */
export const instantOf = (local: string) => new Date(local).toISOString();
