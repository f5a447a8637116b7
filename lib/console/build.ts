/**
 * Builds the console: one script bundle (Preact and the typed API client
 * included), one style sheet and the page, in memory. Code that only some
 * actions need comes apart, loaded on first use: the draft check as a
 * worker's script, the FEEL rename of a workflow step and the FEEL code
 * editor (CodeMirror) as chunks, and what they share (the FEEL parser) as
 * chunks they import. The local runtime serves the
 * result and the stack deploys it, so both ship the same files.
 */
import { readFileSync } from 'node:fs';
import { build, buildSync, type BuildOptions, type OutputFile } from 'esbuild';

export interface ConsoleFile {
  body: Buffer;
  contentType: string;
}

const web = new URL('./web/', import.meta.url);

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const buildOptions = (options: { minify?: boolean }): BuildOptions & { write: false } => ({
  // The draft check runs in a worker of its own (web/draft-check-worker.ts), started by its name.
  // So does the token worker, which holds a signed-in person's tokens (web/people/token-worker.ts).
  entryPoints: {
    app: new URL('main.tsx', web).pathname,
    'draft-check-worker': new URL('draft-check-worker.ts', web).pathname,
    'token-worker': new URL('people/token-worker.ts', web).pathname,
  },
  bundle: true,
  write: false,
  outdir: '/console',
  format: 'esm',
  splitting: true,
  // Flat, so the console's files stay one folder; the hash keeps a page that is open during a deployment from loading another build's chunk.
  chunkNames: '[name]-[hash]',
  target: ['chrome120', 'firefox120', 'safari17'],
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  // The editor's FEEL language (@bpmn-io/lang-feel) imports the bpmn-io fork of lezer-feel, the same grammar and the same files
  // under another name: given the engine's, the page fetches one parser, not two.
  alias: { '@bpmn-io/lezer-feel': 'lezer-feel' },
  minify: options.minify ?? true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});

function consoleFiles(outputFiles: OutputFile[]): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const file of outputFiles) {
    const name = file.path.slice('/console/'.length);
    files.set(name, { body: Buffer.from(file.contents), contentType: contentTypes[name.slice(name.lastIndexOf('.'))]! });
  }
  files.set('index.html', { body: readFileSync(new URL('index.html', web)), contentType: contentTypes['.html']! });
  return files;
}

/** The console's files by their name under `/console/` (`index.html`, `app.js`, `app.css`, `draft-check-worker.js`, `token-worker.js` and the chunks). */
export async function buildConsole(options: { minify?: boolean } = {}): Promise<Map<string, ConsoleFile>> {
  return consoleFiles((await build(buildOptions(options))).outputFiles);
}

/** The same files, built synchronously: for CDK's asset bundling (cdk/console.ts), which cannot wait. */
export function buildConsoleSync(options: { minify?: boolean } = {}): Map<string, ConsoleFile> {
  return consoleFiles(buildSync(buildOptions(options)).outputFiles);
}
