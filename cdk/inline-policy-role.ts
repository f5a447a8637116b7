/**
 * A role that holds its permissions inline, in the role itself (the
 * `Policies` of its AWS::IAM::Role), instead of CDK's default policy: an
 * AWS::IAM::Policy resource of its own for every role, one per function, in
 * a stack that holds 500 resources at most.
 *
 * Every grant reaches a role through `addToPrincipalPolicy` (a resource's
 * `grant*`, a log group's `grantWrite`, Lambda's tracing statement, the
 * stack's own statements); here it adds the statement to one policy
 * document, which the role's resource renders when the template is
 * written, so that a grant made after the role still lands in it. The
 * statements come out as the default policy's did: the same document type,
 * merged the same way (`@aws-cdk/aws-iam:minimizePolicies`). What depends on
 * a grant depends on the role, whose creation or update puts the policy.
 *
 * IAM allows a role 10,240 characters of inline policies, together; CDK
 * moves the default policy's overflow into managed policies, this role
 * does not: it refuses to synthesize past an estimate of that size
 * (`estimatedPolicySize`). A policy attached with `attachInlinePolicy` stays
 * what it is in a Role, an AWS::IAM::Policy of its own; it counts toward
 * IAM's limit too, though not toward the estimate (the service attaches none).
 */
import { Stack } from 'aws-cdk-lib';
import { PolicyDocument, Role, type AddToPrincipalPolicyResult, type PolicyStatement, type RoleProps } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/** IAM's limit on a role's inline policies, all of them together, whitespace aside. */
export const inlinePoliciesLimit = 10_240;

/**
 * What a reference counts for in the estimate: a resource's (an ARN, a name)
 * longer than any ARN of the stack (CDK guesses 150); a pseudo parameter's
 * (partition, region, account) longer than any of their values.
 */
const referenceEstimate = { resource: 200, pseudo: 20 };

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A resolved CloudFormation value with every reference written as `referenceEstimate`'s characters, joins joined. */
function estimated(value: Json): Json {
  if (Array.isArray(value)) return value.map(estimated);
  if (value === null || typeof value !== 'object') return value;
  const [key, ...others] = Object.keys(value);
  if (key !== undefined && others.length === 0 && (key === 'Ref' || key.startsWith('Fn::'))) {
    const join = value['Fn::Join'];
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) return join[1].map(estimated).join(join[0]);
    return 'x'.repeat(typeof value.Ref === 'string' && value.Ref.startsWith('AWS::') ? referenceEstimate.pseudo : referenceEstimate.resource);
  }
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, estimated(field)]));
}

export class InlinePolicyRole extends Role {
  /** The name of the role's inline policy, which holds every grant made to it. */
  static readonly policyName = 'Permissions';

  /** The one inline policy: what `addToPrincipalPolicy` adds to. */
  readonly permissions: PolicyDocument;

  constructor(scope: Construct, id: string, props: Omit<RoleProps, 'inlinePolicies'>) {
    const permissions = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { [InlinePolicyRole.policyName]: permissions } });
    this.permissions = permissions;
    this.node.addValidation({
      validate: () => {
        if (this.permissions.isEmpty) return ['The role has no permissions: an inline policy without statements is no valid template'];
        const size = this.estimatedPolicySize();
        return size > inlinePoliciesLimit
          ? [`The role's inline policy is about ${size} characters, past the ${inlinePoliciesLimit} IAM allows a role: grant less, or split the role`]
          : [];
      },
    });
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.permissions.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }

  /** How many characters the inline policy will be once deployed, over-estimated: each reference counted as a long ARN. */
  estimatedPolicySize(): number {
    return JSON.stringify(estimated(Stack.of(this).resolve(this.permissions) as Json)).length;
  }
}
