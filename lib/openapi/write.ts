import { writeFileSync } from 'node:fs';
import { consoleSchemaPath, renderConsoleSchema } from './console-types.ts';
import { openApiDocument } from './document.ts';

export const openApiPath = new URL('./openapi.json', import.meta.url);
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(openApiPath, renderOpenApi());
  console.log(`wrote ${openApiPath.pathname}`);
  writeFileSync(consoleSchemaPath, await renderConsoleSchema());
  console.log(`wrote ${consoleSchemaPath.pathname}`);
}
