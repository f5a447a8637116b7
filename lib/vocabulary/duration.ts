/**
 * ISO 8601 durations as a replay gate's window states them: "P7D", "PT12H",
 * "P2W", "P1DT6H30M". Weeks, days, hours, minutes and seconds, each a whole
 * number (seconds may have up to three decimals). Years and months are
 * refused: their length depends on the calendar, while a window is a span of
 * recorded executions. A few lines rather than a library: the forms a window
 * needs are few, and every authoring function would bundle the library.
 */

const durationPattern = /^P(?:(\d{1,6})W|(\d{1,6}D)?(?:T(\d{1,6}H)?(\d{1,6}M)?(\d{1,6}(?:\.\d{1,3})?S)?)?)$/;

/** The milliseconds `text` states, or undefined when it is not a duration of this form (or states none of its parts). */
export function durationMs(text: string): number | undefined {
  const match = durationPattern.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => (part === undefined ? 0 : Number.parseFloat(part)));
  return ((((weeks! * 7 + days!) * 24 + hours!) * 60 + minutes!) * 60 + seconds!) * 1000;
}
