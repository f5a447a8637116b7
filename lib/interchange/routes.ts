/**
 * Rules in and out of files: the import (a file as the request body, its
 * format told by its content type) and the export (the file as the answer).
 * The import path is a static segment beside `{entityId}`, so no rule may be
 * called "import" (the entity schema reserves it).
 */
import * as z from 'zod/mini';
import { versionLabelPattern } from '../vocabulary/kinds.ts';
import type { Route } from '../http/route.ts';
import { formatNames, importBounds, importContentTypes } from './format-contract.ts';

const formatName = (description: string) =>
  z.enum(formatNames, { error: `must be one of ${formatNames.join(', ')}` }).register(z.globalRegistry, { description });

export const importQuerySchema = z.object({
  dryRun: z
    .optional(z.enum(['true', 'false'], { error: 'must be true or false' }))
    .register(z.globalRegistry, { description: 'true: write nothing, answer what the import would do, with every problem and every element not carried' }),
  format: z.optional(formatName('the format, when the Content-Type does not say it (application/octet-stream)')),
  fileName: z.optional(
    z
      .string()
      .check(z.minLength(1), z.maxLength(255), z.regex(/^[^/\\\u0000-\u001f]+$/, 'must be a file name, without folders or control characters'))
      .register(z.globalRegistry, {
        description:
          "the file's name: a CSV file, or a sheet of a workbook, without a `Rule id` row takes its rule's id from it (letter-fee.csv is letter-fee); problems name it. `upload` when absent",
      }),
  ),
  checksum: z.optional(
    z.string().check(z.maxLength(20_000)).register(z.globalRegistry, {
      description:
        'the checksums of the drafts the import replaces, as an edit takes them: `id:checksum` pairs separated by commas, or one checksum when the file holds one rule. A draft that exists with other content is replaced only with its checksum (409 checksum_required without, checksum_mismatch when stale)',
    }),
  ),
});

export const exportQuerySchema = z.object({
  format: formatName('dmn (DMN 1.5 XML), xlsx (Excel), csv, or jdm (GoRules JSON)'),
  version: z
    .optional(z.string().check(z.regex(versionLabelPattern, { error: 'must be a published version label such as v1' })))
    .register(z.globalRegistry, { description: 'a published version such as v1; the draft when absent' }),
  dmnVersion: z.optional(z.enum(['1.5', '1.3'], { error: 'must be 1.5 or 1.3' })).register(z.globalRegistry, {
    description:
      "DMN only: 1.5 (the default), or 1.3's namespaces for Camunda Modeler and bpmn-io's dmn-js, which open DMN 1.3 (a decision table is written alike in both)",
  }),
});

export const interchangeRoutes = {
  importRules: {
    operationId: 'importRules',
    permission: 'write',
    method: 'POST',
    path: '/dev/v1/{entityType}/import',
    entityTypes: ['rule'],
    handler: 'import-rules',
    summary: 'Import rules from a DMN, Excel, CSV or GoRules JDM file',
    description: `Creates a draft for each decision, sheet or node of the file sent as the body (\`curl --data-binary @table.xlsx -H 'Content-Type: ...'\`), after checking every record as a save does: nothing is written unless all pass (400 import_refused lists the problems). A draft that exists with the same content is left as it is; one with other content is replaced only with its checksum. With dryRun=true nothing is written and the answer lists what would be created or replaced, the records themselves, every problem, and every element of the file that no record keeps. Files of at most ${importBounds.maxFileBytes / 1024 / 1024} MB (413 beyond); tables of at most ${importBounds.maxRows} rows and ${importBounds.maxColumns} columns; XML without DTDs, ${importBounds.maxDepth} levels deep at most; XLSX archives of at most ${importBounds.maxZipEntries} entries and ${importBounds.maxUnzippedBytes / 1024 / 1024} MB inflated, none inflating more than ${importBounds.maxZipRatio} times (each a 400 naming the bound).`,
    branch: 'optional',
    query: importQuerySchema,
    upload: {
      contentTypes: importContentTypes,
      description: 'the file: DMN XML, an XLSX workbook, CSV, or GoRules JDM JSON (or this service’s own JSON records)',
    },
    tableAccess: 'readWrite',
  },
  exportRule: {
    operationId: 'exportRule',
    permission: 'read',
    method: 'GET',
    path: '/dev/v1/{entityType}/{entityId}/export',
    entityTypes: ['rule'],
    handler: 'export-rule',
    summary: 'Download a rule as DMN, Excel, CSV or GoRules JDM',
    description:
      'The draft, or a published version, as a file of the format asked, with its content type and a file name (Content-Disposition). DMN holds every kind of rule but rule sets; Excel and CSV hold decision tables; JDM holds decision tables and simple rules. A rule the format cannot hold is a 400 saying why. What the format has no place for (tags, test cases, settings) travels in its extension fields, so importing the file gives back the same rule and checksum.',
    branch: 'optional',
    query: exportQuerySchema,
    tableAccess: 'read',
  },
} satisfies Record<string, Route>;
