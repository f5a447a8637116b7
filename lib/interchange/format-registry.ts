/**
 * The formats by name, by content type and by file extension: what the
 * import operation, the export operation, the CLI and the pull look a file's
 * format up in. JSON is two things: GoRules JDM (a graph of `nodes` and
 * `edges`) and this service's own records, told apart by shape.
 */
import { csvFormat } from './csv.ts';
import { dmnFormat } from './dmn.ts';
import { formatOfExtension, type Format, type FormatName } from './format-contract.ts';
import { jdmFormat } from './jdm.ts';
import { xlsxFormat } from './xlsx.ts';

export const formats: Record<FormatName, Format> = { dmn: dmnFormat, xlsx: xlsxFormat, csv: csvFormat, jdm: jdmFormat };

/** A file's format, by its extension (a `.json` file is JDM or this service's own records, told apart by content when read). */
export const formatOfFileName = (name: string): Format | undefined => {
  const format = formatOfExtension(name);
  return format && formats[format];
};
