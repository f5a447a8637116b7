/** The deployed stack's name and output keys: the stack declares them and the CLI reads them, so this file imports nothing. */
export const stackName = 'RulesService';

export const stackOutputs = {
  /** The stage URL, ending in `/`; route paths are appended to it. */
  apiUrl: 'ApiUrl',
  tableName: 'TableName',
  /** Subscribe to it for alarm notifications (or deploy with `-c alarmEmail=...`). */
  alarmTopicArn: 'AlarmTopicArn',
  /** `https://<distribution domain>/console/`: the API is under the same origin. */
  consoleUrl: 'ConsoleUrl',
} as const;
