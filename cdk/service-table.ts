/** The service's DynamoDB table, built from the one definition in `lib/store/table.ts`. */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { allIndexes, tableDefinition } from '../lib/store/table.ts';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

export function serviceTable(scope: Construct, id: string): Table {
  const table = new Table(scope, id, {
    partitionKey: stringKey(tableDefinition.partitionKey),
    sortKey: stringKey(tableDefinition.sortKey),
    timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Encrypted at rest with the account's aws/dynamodb key rather than one AWS owns: the template says so, and CloudTrail records the key's use.
    encryption: TableEncryption.AWS_MANAGED,
    // The data outlives the stack: deleting the stack leaves the table behind.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of allIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: stringKey(index.partitionKey),
      sortKey: stringKey(index.sortKey),
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...index.projectedAttributes],
    });
  }
  return table;
}

/** The ARN of each of the table's indexes, by name: what a grant on the indexes names instead of `index/*`. */
export const indexArnsOf = (table: Table): string[] => allIndexes.map((index) => `${table.tableArn}/index/${index.name}`);
