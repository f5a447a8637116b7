/** A control's aria-describedby from the notes that may describe it (a refused permit's, a reason it waits): the ids of those shown, or none. */
export const describedBy = (...ids: (string | false | undefined)[]): string | undefined => ids.filter(Boolean).join(' ') || undefined;
