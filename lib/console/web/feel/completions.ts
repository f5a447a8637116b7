/**
 * What a FEEL field offers as it is typed: the names the field may read
 * (./names.ts says which) and the engine's built-in functions, each with its
 * signature. The built-ins come from the engine's own list
 * (lib/engine/feel/builtin-signatures.ts), so the editor offers exactly the
 * functions a rule can call. Plain data here; ./code-editor.ts hands it to
 * CodeMirror.
 */
import { builtinSignatures } from '../../../engine/feel/builtin-signatures.ts';

/** A name a field may read: a declared input, an earlier output, a workflow input or step; `detail` says which. */
export interface FeelName {
  name: string;
  detail?: string;
}

export interface FeelCompletion {
  label: string;
  /** Beside the label: where a name comes from, or a function's parameters. */
  detail?: string;
  type: 'variable' | 'function';
  /** What choosing a function writes, as a CodeMirror snippet: its call, with a field to fill for each parameter it needs. */
  snippet?: string;
}

/** A parameter as the engine declares it, without its mark (`length?` is optional, `item...` takes the rest). */
const bare = (param: string) => param.replace(/\?$|\.\.\.$/, '');

/** A function's parameters as one reads them: `(string, start position, length?)`, overloads apart: `(from) or (year, month, day)`. */
export const signatureText = (overloads: readonly (readonly string[])[]) => overloads.map((params) => `(${params.join(', ')})`).join(' or ');

/** The call a function's completion writes: its first overload's required parameters, each a field to fill. */
export const callSnippet = (name: string, params: readonly string[]) =>
  `${name}(${params
    .filter((param) => !param.endsWith('?'))
    .map((param) => `\${${bare(param)}}`)
    .join(', ')})`;

export const builtinCompletions: readonly FeelCompletion[] = Object.entries(builtinSignatures).map(([name, overloads]) => ({
  label: name,
  detail: signatureText(overloads),
  type: 'function',
  snippet: callSnippet(name, overloads[0]!),
}));

/** The names' completions, each once (the first says where it comes from), before the built-ins. */
export function completionsOf(names: readonly FeelName[]): FeelCompletion[] {
  const seen = new Set<string>();
  const own: FeelCompletion[] = [];
  for (const { name, detail } of names) {
    if (!name || seen.has(name)) continue;
    seen.add(name);
    own.push({ label: name, type: 'variable', ...(detail && { detail }) });
  }
  return [...own, ...builtinCompletions];
}
