/** Which table the CLI works on: the local runtime's, a named one, or a deployed stack's. */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoConfig } from '../store/dynamo/client.ts';
import { defaultLocalEndpoint, localTableName, stackOutputs } from '../deployment/names.ts';

export interface TargetOptions {
  local?: boolean;
  endpoint?: string;
  table?: string;
  stack?: string;
  region?: string;
}

export async function resolveTarget(options: TargetOptions, env: NodeJS.ProcessEnv = process.env): Promise<DynamoConfig> {
  const region = options.region ?? env.AWS_REGION;
  if (options.stack) {
    const cloudFormation = new CloudFormationClient({ region });
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: options.stack }));
    const tableName = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === stackOutputs.tableName)?.OutputValue;
    if (!tableName) throw new Error(`stack ${options.stack} has no ${stackOutputs.tableName} output`);
    return { tableName, region };
  }
  const tableName = options.table ?? env.TABLE_NAME;
  if (tableName && !options.local) return { tableName, endpoint: options.endpoint ?? env.DYNAMODB_ENDPOINT, region };
  return { tableName: localTableName, endpoint: options.endpoint ?? env.DYNAMODB_ENDPOINT ?? defaultLocalEndpoint, region };
}

/**
 * A refused connection said as what to do: the SDK's error names only the address (`connect ECONNREFUSED
 * 127.0.0.1:8000`), not the runtime that is not running nor the options that choose another table. Other errors pass.
 */
export function explainRefusal(error: unknown, target: DynamoConfig): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ECONNREFUSED' || !target.endpoint) return error;
  const message =
    target.tableName === localTableName
      ? `nothing answers at ${target.endpoint}, the local runtime's DynamoDB: start the runtime with \`npm start\` in another shell, ` +
        "or work on another table with --stack NAME (a deployed stack's) or --table NAME"
      : `nothing answers at ${target.endpoint} (--endpoint or DYNAMODB_ENDPOINT), the DynamoDB of table ${target.tableName}: start it, or pass the endpoint it listens on`;
  return new Error(message, { cause: error });
}
