/**
 * A rule as a file of another tool: DMN for Camunda or Drools, Excel, CSV,
 * GoRules JDM. The export needs the key, so it is fetched, then handed to the
 * browser as a download under the name the API gives.
 */
import { useState } from 'preact/hooks';
import { formatFiles } from '../../../interchange/format-contract.ts';
import { useConsole } from '../context.ts';
import { Failure } from '../ui/failure.tsx';
import type { RuleKind } from './model.ts';

const choices = [
  { format: 'dmn', label: 'DMN', kinds: ['decisionTable', 'simpleRule'] },
  { format: 'xlsx', label: 'Excel', kinds: ['decisionTable'] },
  { format: 'csv', label: 'CSV', kinds: ['decisionTable'] },
  { format: 'jdm', label: 'JDM', kinds: ['decisionTable', 'simpleRule'] },
] as const;

export function DownloadRule({ id, kind, version }: { id: string; kind: RuleKind; version?: string }) {
  const { api } = useConsole();
  const [error, setError] = useState<unknown>();
  const offered = choices.filter((choice) => (choice.kinds as readonly string[]).includes(kind));
  if (offered.length === 0) return null;

  const download = async (format: (typeof choices)[number]['format']) => {
    setError(undefined);
    try {
      const file = await api.body(
        api.client.GET('/dev/v1/{entityType}/{entityId}/export', {
          params: { path: { entityType: 'rule', entityId: id }, query: { format, ...(version && { version }) } },
          parseAs: 'blob',
        }),
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file as Blob);
      // The name the API gives it (Content-Disposition): the rule's id and the format's extension.
      link.download = `${id}${formatFiles[format].extensions[0]}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <div class="download" role="group" aria-label="Download as">
      <span>Download as</span>
      {offered.map((choice) => (
        <button key={choice.format} type="button" class="quiet" onClick={() => download(choice.format)}>
          {choice.label}
        </button>
      ))}
      <Failure error={error} title="Could not download the rule" />
    </div>
  );
}
