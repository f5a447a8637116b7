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
 *
 * Engine failures are found the same way: each `new EngineError('<code>', …)`
 * met is the error `fromEngineError` (lib/vocabulary/errors.ts) answers for that
 * code. The answer table itself is not followed, since every function's
 * error handling refers to it; nor is a declaration whose documentation says
 * `@catchesFailures`: it catches every failure the code it runs raises (a
 * save's test coverage runs the rule, and reports what fails as a warning).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { EngineError, type EngineErrorCode } from '../engine/errors.ts';
import { errors, fromEngineError, type ApiError } from '../vocabulary/errors.ts';
import type { Route } from '../http/route.ts';

export type ErrorName = keyof typeof errors;

export interface RaisedError {
  /** The factory in `errors`, or the engine code an engine failure was raised with. */
  name: ErrorName | `engine:${EngineErrorCode}`;
  status: number;
  code: string;
  /** The error's `data` as one instance has it: null, {} or `{ errors: [...] }`. */
  data: unknown;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const errorsFile = resolve(root, 'lib/vocabulary/errors.ts');
const engineErrorsFile = resolve(root, 'lib/engine/errors.ts');
const revisionRetryFile = resolve(root, 'lib/store/revision-retry.ts');
/** Declarations in errors.ts not followed: the answers to domain failures, which the envelope of every function names (each failure is found where it is raised). */
const engineAnswerDeclarations = ['engineErrorAnswers', 'fromEngineError', 'fromRevisionConflict'];
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

/** Whether a declaration says, with `@catchesFailures`, that no failure of the code it runs leaves it. */
const catchesFailures = (declaration: ts.Node) => ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'catchesFailures');

const literalValue = (node: ts.Expression): unknown => (ts.isNumericLiteral(node) ? Number(node.text) : ts.isStringLiteralLike(node) ? node.text : []);

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

  const isEngineErrorClass = (node: ts.Expression) =>
    symbolOf(node)?.declarations?.some((declaration) => ts.isClassDeclaration(declaration) && declaration.getSourceFile().fileName === engineErrorsFile) ??
    false;
  /**
   * The store's RevisionConflict as `retryOnRevisionConflict` throws it once
   * its tries are used up, which lib/http answers as errors.writeConflict.
   * (The adapters' own, which every function's store reaches, are what those
   * tries catch.)
   */
  const isRevisionConflictClass = (node: ts.NewExpression) =>
    ts.findAncestor(node, ts.isFunctionDeclaration)?.name?.text === 'retryOnRevisionConflict' &&
    (symbolOf(node.expression)?.declarations?.some(
      (declaration) =>
        ts.isClassDeclaration(declaration) && declaration.name?.text === 'RevisionConflict' && declaration.getSourceFile().fileName === revisionRetryFile,
    ) ??
      false);
  const skipped = program
    .getSourceFile(errorsFile)!
    .statements.filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations.filter((d) => engineAnswerDeclarations.includes(d.name.getText())));

  /**
   * `(await import('./module.ts')).name`, a module a function loads on first
   * use (also through a memo: `(await (loaded ??= import('./module.ts'))).name`): the export it names. (Without lib typings the checker cannot see
   * through the promise, so the module's exports are looked up directly.)
   */
  const lazyImportMember = (node: ts.Node): ts.Node[] | undefined => {
    if (!ts.isPropertyAccessExpression(node)) return undefined;
    let inner: ts.Expression = node.expression;
    for (;;) {
      if (ts.isParenthesizedExpression(inner) || ts.isAwaitExpression(inner)) inner = inner.expression;
      else if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken) inner = inner.right;
      else break;
    }
    if (!ts.isCallExpression(inner) || inner.expression.kind !== ts.SyntaxKind.ImportKeyword) return undefined;
    const [specifier] = inner.arguments;
    if (!specifier || !ts.isStringLiteralLike(specifier)) return undefined;
    const module = program.getSourceFile(resolve(dirname(node.getSourceFile().fileName), specifier.text));
    const moduleSymbol = module && checker.getSymbolAtLocation(module);
    const member = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === node.name.text);
    return (member?.declarations ?? []).filter(inProject);
  };

  /**
   * What one declaration (or the handler's statement) holds, without following
   * names: the errors raised in it and the declarations its names refer to.
   * Worked out once and shared by every route that reaches it.
   */
  const scanned = new Map<ts.Node, { raised: RaisedError[]; refers: ts.Node[] }>();
  const scan = (root: ts.Node) => {
    let found = scanned.get(root);
    if (found) return found;
    found = { raised: [], refers: [] };
    const { raised, refers } = found;
    const raise = (name: RaisedError['name'], error: ApiError) => raised.push({ name, status: error.status, code: error.code, data: error.data });
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && isErrorsObject(node.expression)) {
        const name = node.name.text as ErrorName;
        const args = ts.isCallExpression(node.parent) && node.parent.expression === node ? node.parent.arguments.map(literalValue) : [];
        const error = (errors[name] as (...args: unknown[]) => ApiError)(...args);
        if (!Number.isInteger(error.status))
          throw new Error(`errors.${name} at ${node.getSourceFile().fileName}: its status depends on an argument that is not a literal`);
        raise(name, error);
        return;
      }
      if (ts.isNewExpression(node) && isRevisionConflictClass(node)) raise('writeConflict', errors.writeConflict(''));
      if (ts.isNewExpression(node) && isEngineErrorClass(node.expression)) {
        const code = node.arguments?.[0] && literalValue(node.arguments[0]);
        if (typeof code !== 'string') throw new Error(`new EngineError at ${node.getSourceFile().fileName}: its code is not a literal`);
        raise(`engine:${code as EngineErrorCode}`, fromEngineError(new EngineError(code as EngineErrorCode, '')));
      }
      const lazy = lazyImportMember(node);
      if (lazy) refers.push(...lazy);
      else if (ts.isIdentifier(node)) refers.push(...(symbolOf(node)?.declarations ?? []).filter(inProject));
      ts.forEachChild(node, visit);
    };
    visit(root);
    scanned.set(root, found);
    return found;
  };

  const result = new Map<string, RaisedError[]>();
  for (const route of routes) {
    const source = program.getSourceFile(functionFile(route));
    if (!source) throw new Error(`functions/${route.handler}.ts not found for ${route.operationId}`);
    const start =
      source.statements.find((s) => ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => d.name.getText() === 'handler')) ?? source;
    const raised = new Map<string, RaisedError>();
    const seen = new Set<ts.Node>([...skipped, start]);
    for (const pending: ts.Node[] = [start]; pending.length;) {
      const { raised: here, refers } = scan(pending.pop()!);
      for (const error of here) raised.set(`${error.status} ${error.code} ${error.name}`, error);
      for (const declaration of refers)
        if (!seen.has(declaration) && !catchesFailures(declaration)) {
          seen.add(declaration);
          pending.push(declaration);
        }
    }
    result.set(route.operationId, [...raised.values()]);
  }
  return result;
}
