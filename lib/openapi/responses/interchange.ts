/** The answers of importing and exporting rule files (lib/interchange): what an import does with each record, and the exported file. */
import { z } from 'zod';
import { formatFiles } from '../../interchange/format-contract.ts';
import type { interchangeRoutes } from '../../interchange/routes.ts';
import type { ResponsesOf } from './shared.ts';

export const interchangeResponses = {
  importRules: {
    data: z.object({
      dryRun: z.boolean(),
      records: z.array(
        z.object({
          entityType: z.enum(['rule', 'workflow']),
          id: z.string(),
          type: z.string().describe('the kind: decisionTable, simpleRule, ruleSet (or workflow, from a JDM graph)'),
          name: z.string(),
          action: z.enum(['create', 'replace', 'unchanged']).describe('what the import does (or, in a dry run, would do) with the draft of this id'),
          checksum: z.string().describe('the checksum the draft has once imported'),
          previousChecksum: z.string().optional().describe('the checksum of the draft it replaces'),
          checksumRequired: z.boolean().optional().describe("a dry run's replacement the request gave no checksum for: the import itself would answer 409"),
          warnings: z.array(z.object({ path: z.string(), message: z.string() })),
          record: z.unknown().optional().describe('in a dry run: the record as it would be saved, to compare with the draft'),
        }),
      ),
      problems: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .describe('in a dry run, what would refuse the import, by file and element (a real import with problems is refused: 400 import_refused)'),
      notCarried: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .describe('what the file holds that no record keeps, by element, and why (boxed contexts, BKMs, unknown types, extra sheets, ...)'),
    }),
    created: true,
  },
  exportRule: {
    file: {
      contentType: Object.values(formatFiles).map((format) => format.contentType),
      description: 'the file: DMN 1.5 XML, an XLSX workbook, CSV, or GoRules JDM JSON, as the format asked',
      schema: z.unknown(),
      headers: { 'Content-Disposition': { description: "attachment, with the file name: the rule id and the format's extension", schema: { type: 'string' } } },
    },
  },
} satisfies ResponsesOf<typeof interchangeRoutes>;
