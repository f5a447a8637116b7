/**
 * The first look at an imported XML file, before any parser builds from it:
 * a parser that expanded entities or followed a DOCTYPE could be made to read
 * local files (XXE) or to expand a few bytes into gigabytes (billion laughs),
 * and one that builds a tree for a file nested thousands deep spends what the
 * bounds are there to keep. So the text is checked here, cheaply and in one
 * pass, and refused with the bound it exceeds:
 *
 * - it must be UTF-8 (a BOM is allowed; a declared encoding must say UTF-8);
 * - it must hold no DOCTYPE or ENTITY declaration anywhere (not even in a
 *   comment: refusing is cheaper than telling them apart, and no DMN file
 *   needs one);
 * - its elements may nest at most `importBounds.maxDepth` deep.
 *
 * The same pass tells the caller each element it opens (to count tables,
 * rows and columns before they are built) and lets it rename namespace
 * declarations (a format reading several versions of a vocabulary maps them
 * onto the one its parser knows). Comments, CDATA sections and processing
 * instructions are skipped; the scan does not judge well-formedness, which
 * the parser reports.
 */
import { ImportBoundExceeded, importBounds } from './format-contract.ts';

/** The text of a file that must be UTF-8, without its BOM. */
export function utf8Text(body: Uint8Array): string {
  if ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe))
    throw new ImportBoundExceeded('encoding', 'the file is UTF-16: save it as UTF-8');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ImportBoundExceeded('encoding', 'the file is not UTF-8 text');
  }
  const declared = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
  if (declared !== undefined && !/^(?:utf-?8|us-ascii|ascii)$/i.test(declared))
    throw new ImportBoundExceeded('encoding', `the file declares the encoding "${declared}": only UTF-8 is read`);
  return text;
}

export interface XmlScan {
  /** Called for each element opened, with its local name and its parent's (undefined for the root). */
  element?(localName: string, parentLocalName: string | undefined): void;
  /** The namespace a declaration (`xmlns` or `xmlns:prefix`) should name instead of `uri`, or undefined to keep it. */
  namespace?(uri: string): string | undefined;
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

/** Where the construct starting at `from` ends (just past `terminator`), or the text's end when it never does. */
function skipPast(text: string, from: number, terminator: string): number {
  const end = text.indexOf(terminator, from);
  return end === -1 ? text.length : end + terminator.length;
}

/** An attribute of a start tag, from just after the tag's name: its name, and where its value (without quotes) lies. */
const attribute = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/**
 * Checks the text against the bounds, reports each element, and gives the
 * text back with the namespace declarations renamed.
 *
 * @throws ImportBoundExceeded for a DOCTYPE or ENTITY declaration, or elements nested past maxDepth
 */
export function scanXml(text: string, scan: XmlScan = {}): string {
  if (/<!(?:DOCTYPE|ENTITY)/i.test(text))
    throw new ImportBoundExceeded(
      'doctype',
      'the file has a DOCTYPE or ENTITY declaration: refused, as no DMN file needs one (no external entities, no entity expansion)',
    );
  const open: string[] = [];
  const renamed: string[] = [];
  let copiedTo = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at)) {
    if (text.startsWith('<!--', at)) at = skipPast(text, at + 4, '-->');
    else if (text.startsWith('<![CDATA[', at)) at = skipPast(text, at + 9, ']]>');
    else if (text.startsWith('<?', at)) at = skipPast(text, at + 2, '?>');
    else if (text.startsWith('</', at)) {
      open.pop();
      at = skipPast(text, at + 2, '>');
    } else {
      const name = /^[^\s/>]+/.exec(text.slice(at + 1, at + 1 + 512))?.[0] ?? '';
      let end = at + 1 + name.length;
      attribute.lastIndex = end;
      for (let match = attribute.exec(text); match; match = attribute.exec(text)) {
        end = attribute.lastIndex;
        const [, attributeName, doubleQuoted, singleQuoted] = match;
        if (attributeName !== 'xmlns' && !attributeName!.startsWith('xmlns:')) continue;
        const uri = doubleQuoted ?? singleQuoted!;
        const replacement = scan.namespace?.(uri);
        if (replacement === undefined || replacement === uri) continue;
        const valueEnd = end - 1;
        renamed.push(text.slice(copiedTo, valueEnd - uri.length), replacement);
        copiedTo = valueEnd;
      }
      const tagEnd = skipPast(text, end, '>');
      const selfClosing = text[tagEnd - 2] === '/';
      if (open.length + 1 > importBounds.maxDepth)
        throw new ImportBoundExceeded('maxDepth', `elements nest more than ${importBounds.maxDepth} deep (at <${name}>)`);
      scan.element?.(localName(name), open.at(-1));
      if (!selfClosing) open.push(localName(name));
      at = tagEnd;
    }
  }
  return copiedTo === 0 ? text : renamed.join('') + text.slice(copiedTo);
}
