/**
 * Instants in the browser's own time zone: as people read a time the API
 * gave, and as a datetime-local field holds one (a time without its zone),
 * both ways.
 */

/** A time the API gave, for people, or a dash. */
export const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** An instant (ISO 8601) as a datetime-local field shows it; empty for none. */
export function localTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** What a datetime-local field holds, as the instant the API takes. */
export const instantOf = (local: string) => new Date(local).toISOString();
