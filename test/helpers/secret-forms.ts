/**
 * Every form a secret can take on its way into a log line, an answer or a
 * stored item, so that a scan finds it however it was encoded: as typed;
 * %-encoded by each URL encoder (upper- and lower-case hex; escape()'s
 * %uXXXX), and as the URL parser re-encodes a query or path it is given;
 * form-encoded;
 * base64 and base64url at each of the three alignments it can have inside a
 * longer encoded text (`user:secret` in a Basic header); hex; JSON-escaped
 * (once, twice, with \u escapes, with escaped slashes); HTML entities; and
 * UTF-8 read back as Latin-1. A secret that is only partly redacted is found
 * by its `core`: a run of letters and digits that no encoder changes.
 */

export interface Secret {
  /** What the leak is called in a failure: which credential, which value. */
  label: string;
  value: string;
  /** Letters and digits inside `value`, long enough (12+) to be unique: found alone, it is a partial leak. */
  core?: string;
}

const hexDigits = /%[0-9A-F]{2}/g;
const lowerHex = (text: string) => text.replace(hexDigits, (escape) => escape.toLowerCase());

/** As JSON.stringify writes it inside a string, without the quotes. */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
/** JSON with every non-ASCII character as \uXXXX (Python's json, Java's Jackson with ASCII output). */
const asciiJson = (text: string) => jsonEscaped(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** PHP's json_encode: slashes escaped as well. */
const slashJson = (text: string) => jsonEscaped(text).replace(/\//g, '\\/');

const htmlNamed: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** The characters an HTML escaper replaces, as named entities; non-ASCII as decimal or hex references. */
const htmlForms = (text: string) => {
  const named = text.replace(/[&<>"']/g, (c) => htmlNamed[c]!);
  return [
    named,
    named.replace(/&#39;/g, '&#x27;'),
    named.replace(/[\u0080-\uffff]/g, (c) => `&#${c.charCodeAt(0)};`),
    named.replace(/[\u0080-\uffff]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  ];
};

/**
 * The base64 characters that encode `bytes` whatever precedes or follows
 * them, for each of the three offsets they can start at in a longer text.
 */
function alignedBase64(bytes: Buffer, alphabet: 'base64' | 'base64url'): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
    return encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
  });
}

/** Every form of `text`, deduplicated. */
export function encodedForms(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const component = encodeURIComponent(text);
  /** What a URL holds once parsed: its query with the value encoded first (the parser then encodes "'" too), or given raw; its path given raw. */
  const parsed = [
    new URL(`http://x/?${component}`).search.slice(1),
    new URL(`http://x/?${text}`).search.slice(1),
    new URL(`http://x/${text}`).pathname.slice(1),
  ];
  const urlEncoded = [
    component,
    encodeURI(text),
    component.replace(/%20/g, '+'),
    new URLSearchParams({ k: text }).toString().slice(2),
    escape(text),
    ...parsed,
  ];
  const plain = [text, ...urlEncoded, ...urlEncoded.map(lowerHex)];
  const binary = [
    bytes.toString('base64'),
    bytes.toString('base64url'),
    ...alignedBase64(bytes, 'base64'),
    ...alignedBase64(bytes, 'base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    bytes.toString('latin1'),
  ];
  const json = [...plain, ...binary].flatMap((form) => [jsonEscaped(form), jsonEscaped(jsonEscaped(form))]);
  // A form cut short (a URL parser stops at "#") that is shorter than 8 characters would turn up in ordinary text by chance.
  return [...new Set([...plain, ...binary, ...json, asciiJson(text), jsonEscaped(asciiJson(text)), slashJson(text), ...htmlForms(text)])].filter(
    (form) => form.length >= Math.min(8, text.length),
  );
}

export interface Leak {
  secret: string;
  form: string;
  where: string;
  /** Some text around the hit, to find it. */
  around: string;
}

/** Precomputed forms of a set of secrets, searched in any text. */
export function secretScanner(secrets: readonly Secret[]) {
  const patterns = secrets.map((secret) => ({
    label: secret.label,
    forms: encodedForms(secret.value),
    coreForms: secret.core ? encodedForms(secret.core) : [],
  }));
  const hit = (text: string, secret: string, form: string, where: string): Leak[] => {
    const at = text.indexOf(form);
    return at < 0 ? [] : [{ secret, form, where, around: text.slice(Math.max(0, at - 80), at + form.length + 80) }];
  };
  return {
    /** Every form of every secret in `text`, `where` saying what the text is; a secret's core only where no whole form was found. */
    scan(text: string, where: string): Leak[] {
      return patterns.flatMap(({ label, forms, coreForms }) => {
        const whole = forms.flatMap((form) => hit(text, label, form, where));
        return whole.length ? whole : coreForms.flatMap((form) => hit(text, `${label} (its core: a partial leak)`, form, where));
      });
    },
    /** How many forms are searched for. */
    size: patterns.reduce((sum, { forms, coreForms }) => sum + forms.length + coreForms.length, 0),
  };
}

/** The leaks grouped by secret and form: where each was found, with the text around the first. */
export function describeLeaks(leaks: readonly Leak[]): string {
  const groups = new Map<string, Leak[]>();
  for (const leak of leaks) {
    const key = `${leak.secret} as ${JSON.stringify(leak.form)}`;
    groups.set(key, [...(groups.get(key) ?? []), leak]);
  }
  return [...groups]
    .map(
      ([key, found]) => `${key} in ${found.length} place(s): ${found.map((leak) => leak.where).join('; ')}\n    first: …${JSON.stringify(found[0]!.around)}…`,
    )
    .join('\n');
}
