/**
 * The errors each operation can answer, read from the code instead of kept in
 * a list that would drift from it. From the `handler` of a route's function,
 * every declaration it refers to is followed (functions it calls, callbacks it
 * passes, methods of objects it uses: the TypeScript checker resolves each
 * name), and each `errors.<name>(…)` met on the way is an error it can raise.
 * Only this project's files are followed; none outside raises our errors.
 *
 * It errs on the side of listing: a branch never taken at run time still
 * counts, as do errors a shared helper raises only in another mode (the
 * document drops those of the Service-Branch header where the route takes
 * none). Each error is made once with the literal arguments of its call site
 * (other arguments stand in as `[]`), which gives its status, code and the
 * shape of its data.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { errors, type ApiError } from '../http/errors.ts';
import type { Route } from '../http/routes.ts';

export type ErrorName = keyof typeof errors;

export interface RaisedError {
  name: ErrorName;
  status: number;
  code: string;
  /** The error's `data` as one instance has it: null, {} or `{ errors: [...] }`. */
  data: unknown;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const errorsFile = resolve(root, 'lib/http/errors.ts');
const functionFile = (route: Pick<Route, 'handler'>) => resolve(root, 'functions', `${route.handler}.ts`);

/**
 * A program of the functions and the project files they import, nothing
 * else: no lib or package typings are read, which keeps this fast, and a
 * symbol that would lead there is not followed anyway.
 */
function projectProgram(files: string[]): ts.Program {
  const options: ts.CompilerOptions = { noLib: true, allowImportingTsExtensions: true, noEmit: true, types: [] };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map(({ text }) => ({
      resolvedModule:
        text.startsWith('.') && text.endsWith('.ts')
          ? { resolvedFileName: resolve(dirname(containingFile), text), extension: ts.Extension.Ts, isExternalLibraryImport: false }
          : undefined,
    }));
  return ts.createProgram(files, options, host);
}

const literalValue = (node: ts.Expression): unknown =>
  ts.isNumericLiteral(node) ? Number(node.text) : ts.isStringLiteralLike(node) ? node.text : [];

/** What each route's function can raise, by operation id. */
export function raisedErrors(routes: readonly Route[]): Map<string, RaisedError[]> {
  const program = projectProgram([...new Set(routes.map(functionFile))]);
  const checker = program.getTypeChecker();
  const inProject = (node: ts.Node) => !node.getSourceFile().isDeclarationFile;

  const symbolOf = (node: ts.Node) => {
    const symbol = checker.getSymbolAtLocation(node);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };
  const isErrorsObject = (node: ts.Expression) =>
    symbolOf(node)?.declarations?.some(
      (declaration) => ts.isVariableDeclaration(declaration) && declaration.name.getText() === 'errors' && declaration.getSourceFile().fileName === errorsFile,
    ) ?? false;

  const result = new Map<string, RaisedError[]>();
  for (const route of routes) {
    const raised = new Map<string, RaisedError>();
    const seen = new Set<ts.Node>();
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isErrorsObject(node.expression)) {
        const name = node.name.text as ErrorName;
        const args = ts.isCallExpression(node.parent) && node.parent.expression === node ? node.parent.arguments.map(literalValue) : [];
        const error = (errors[name] as (...args: unknown[]) => ApiError)(...args);
        if (!Number.isInteger(error.status)) throw new Error(`errors.${name} at ${node.getSourceFile().fileName}: its status depends on an argument that is not a literal`);
        raised.set(`${error.status} ${error.code}`, { name, status: error.status, code: error.code, data: error.data });
        return;
      }
      if (ts.isIdentifier(node))
        for (const declaration of symbolOf(node)?.declarations ?? [])
          if (!seen.has(declaration) && inProject(declaration)) {
            seen.add(declaration);
            visit(declaration);
          }
      ts.forEachChild(node, visit);
    };
    const source = program.getSourceFile(functionFile(route));
    if (!source) throw new Error(`functions/${route.handler}.ts not found for ${route.operationId}`);
    visit(source.statements.find((s) => ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => d.name.getText() === 'handler')) ?? source);
    result.set(route.operationId, [...raised.values()]);
  }
  return result;
}
