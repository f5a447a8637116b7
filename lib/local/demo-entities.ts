/**
 * The demo workspace's rules and workflows: real, evaluable rules of every
 * kind and every hit policy, each with test cases, and realistic enough to
 * try every list filter.
 */
import type { EntityInput } from '../entities/schema.ts';
import { workflowDefinitionSchema, type WorkflowDefinitionInput } from '../entities/workflow-definition.ts';

type Definition<K extends EntityInput['type']> = Extract<EntityInput, { type: K }>['definition'];
type Table = Definition<'decisionTable'>;
type Cases = NonNullable<Table['tests']>;

const decisionTable = (
  id: string,
  name: string,
  description: string,
  tags: string[],
  definition: Omit<Table, 'hitPolicy'> & { hitPolicy: Table['hitPolicy'] },
): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'decisionTable',
  definition,
});

const simpleRule = (id: string, name: string, description: string, tags: string[], definition: Definition<'simpleRule'>): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'simpleRule',
  definition,
});

const ruleSet = (id: string, name: string, description: string, tags: string[], definition: Definition<'ruleSet'>): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'ruleSet',
  definition,
});

/** Columns and rows in the compact form the tables below are written in. */
const columns = (...specs: [string, string, Table['inputs'][number]['type']][]): Table['inputs'] =>
  specs.map(([id, expression, type]) => ({ id, expression, type }));
const rows = (...specs: [string[], Table['rules'][number]['then']][]): Table['rules'] => specs.map(([when, then]) => ({ when, then }));
const cases = (...specs: [string, Record<string, unknown>, unknown][]): Cases => specs.map(([name, params, expected]) => ({ name, params, expected }));

export const demoRules: EntityInput[] = [
  decisionTable('shipping-cost', 'Shipping cost', 'Shipping fee by destination zone and parcel weight', ['logistics'], {
    hitPolicy: 'first',
    parameters: [{ name: 'order', type: 'context' }],
    inputs: columns(['zone', 'order.destination.zone', 'string'], ['weight', 'order.weightKg', 'number']),
    outputs: [{ id: 'fee', name: 'fee', type: 'number' }],
    rules: rows([['"domestic"', '<= 2'], [4.9]], [['"domestic"', '> 2'], [8.9]], [['"eu"', '-'], [14.5]], [['-', '-'], [29]]),
    tests: cases(
      ['light domestic parcel', { order: { destination: { zone: 'domestic' }, weightKg: 1.5 } }, { fee: 4.9 }],
      ['heavy domestic parcel', { order: { destination: { zone: 'domestic' }, weightKg: 12 } }, { fee: 8.9 }],
      ['anywhere else', { order: { destination: { zone: 'world' }, weightKg: 1 } }, { fee: 29 }],
    ),
  }),
  decisionTable('loan-eligibility', 'Loan eligibility', 'Decides whether an applicant may apply for a personal loan', ['credit', 'lending'], {
    // "any": a minor with a low score matches two rows, which agree.
    hitPolicy: 'any',
    inputs: columns(['age', 'applicant.age', 'number'], ['score', 'applicant.creditScore', 'number']),
    outputs: [{ id: 'eligible', name: 'eligible', type: 'boolean' }],
    rules: rows([['< 18', '-'], [false]], [['-', '< 580'], [false]], [['>= 18', '>= 580'], [true]]),
    tests: cases(
      ['adult with a good score', { applicant: { age: 30, creditScore: 700 } }, { eligible: true }],
      ['minor with a low score', { applicant: { age: 16, creditScore: 500 } }, { eligible: false }],
    ),
  }),
  decisionTable('discount-tier', 'Discount tier', 'Loyalty discount by membership level and basket size', ['pricing', 'loyalty'], {
    // "priority": of the matching rows, the one whose discount comes first in allowedValues.
    hitPolicy: 'priority',
    inputs: columns(['level', 'customer.membership', 'string'], ['basket', 'order.total', 'number']),
    outputs: [{ id: 'discount', name: 'discount', type: 'number', allowedValues: [0.15, 0.1, 0.05, 0] }],
    rules: rows([['"gold"', '>= 100'], [0.15]], [['"gold"', '-'], [0.1]], [['"silver"', '-'], [0.05]], [['-', '-'], [0]]),
    tests: cases(
      ['gold with a large basket', { customer: { membership: 'gold' }, order: { total: 250 } }, { discount: 0.15 }],
      ['silver', { customer: { membership: 'silver' }, order: { total: 250 } }, { discount: 0.05 }],
    ),
  }),
  decisionTable('insurance-premium', 'Insurance premium band', 'Every premium band that applies, most expensive first', ['insurance'], {
    hitPolicy: 'outputOrder',
    inputs: columns(['age', 'driver.age', 'number'], ['vehicle', 'vehicle.class', 'string']),
    outputs: [{ id: 'band', name: 'band', type: 'string', allowedValues: ['E', 'D', 'C', 'B'] }],
    rules: rows([['< 25', '"sport"'], ['"E"']], [['< 25', '-'], ['"D"']], [['-', '"sport"'], ['"C"']], [['-', '-'], ['"B"']]),
    tests: cases([
      'young driver of a sports car',
      { driver: { age: 22 }, vehicle: { class: 'sport' } },
      [{ band: 'E' }, { band: 'D' }, { band: 'C' }, { band: 'B' }],
    ]),
  }),
  decisionTable('tax-rate', 'VAT rate', 'Value-added tax rate by country and product category', ['pricing', 'tax'], {
    // "unique": the rows never overlap, so exactly one matches a known country.
    hitPolicy: 'unique',
    inputs: columns(['country', 'order.country', 'string'], ['category', 'item.category', 'string']),
    outputs: [{ id: 'rate', name: 'rate', type: 'number', default: 0 }],
    rules: rows([['"DE"', '"food"'], [0.07]], [['"DE"', 'not("food")'], [0.19]], [['"FR"', '"food"'], [0.055]], [['"FR"', 'not("food")'], [0.2]]),
    tests: cases(
      ['German food', { order: { country: 'DE' }, item: { category: 'food' } }, { rate: 0.07 }],
      ['French books', { order: { country: 'FR' }, item: { category: 'books' } }, { rate: 0.2 }],
      ['a country the table does not list', { order: { country: 'US' }, item: { category: 'food' } }, { rate: 0 }],
    ),
  }),
  decisionTable('loyalty-points', 'Loyalty points', 'Points an order earns: the sum of every row that applies', ['loyalty', 'pricing'], {
    hitPolicy: 'collect',
    aggregation: 'sum',
    inputs: columns(['total', 'order.total', 'number'], ['level', 'customer.membership', 'string'], ['first', 'order.isFirstOrder', 'boolean']),
    outputs: [{ id: 'points', name: 'points', type: 'number' }],
    rules: rows([['> 0', '-', '-'], ['floor(order.total)']], [['-', '"gold"', '-'], [100]], [['-', '-', 'true'], [50]]),
    tests: cases(['gold member, first order of 80.50', { order: { total: 80.5, isFirstOrder: true }, customer: { membership: 'gold' } }, { points: 230 }]),
  }),
  decisionTable('order-checks', 'Order checks', 'The checks an order needs before it ships, in the order they run', ['logistics', 'compliance'], {
    hitPolicy: 'ruleOrder',
    inputs: columns(['weight', 'order.weightKg', 'number'], ['zone', 'order.destination.zone', 'string'], ['total', 'order.total', 'number']),
    outputs: [{ id: 'check', name: 'check', type: 'string' }],
    rules: rows(
      [['> 30', '-', '-'], ['"freight booking"']],
      [['-', 'not("domestic")', '-'], ['"customs declaration"']],
      [['-', '-', '>= 1000'], ['"manual review"']],
    ),
    tests: cases([
      'a heavy, costly export',
      { order: { weightKg: 40, total: 1500, destination: { zone: 'eu' } } },
      [{ check: 'freight booking' }, { check: 'customs declaration' }, { check: 'manual review' }],
    ]),
  }),
  ruleSet('fraud-screening', 'Fraud screening', 'Scores a payment for fraud signals', ['payments', 'risk'], {
    strategy: 'allMatch',
    rules: [
      { id: 'new-card-high-amount', priority: 10, when: 'payment.amount > 1000 and card.ageDays < 7', then: [{ set: 'risk.score', value: 60 }] },
      { id: 'country-mismatch', priority: 5, when: 'card.country != ip.country', then: [{ set: 'risk.flags.countryMismatch', value: true }] },
      { id: 'velocity', priority: 1, when: 'card.paymentsLastHour > 5', then: [{ set: 'risk.flags.velocity', value: true }] },
      // Another rule of the branch: its output (vip) is seen by the entries after it.
      { id: 'customer-value', priority: 0, ruleId: 'vip-customer' },
      { id: 'trusted', priority: 0, when: 'vip and (risk.score = null or risk.score < 80)', then: [{ set: 'risk.trusted', value: true }] },
    ],
    tests: cases([
      'a new card paying a lot from another country',
      { payment: { amount: 1500 }, card: { ageDays: 2, country: 'DE', paymentsLastHour: 1 }, ip: { country: 'FR' }, customer: { lifetimeValue: 100 } },
      { risk: { score: 60, flags: { countryMismatch: true } }, vip: false },
    ]),
  }),
  ruleSet('credit-limit', 'Credit limit', 'Initial credit limit for a new account', ['credit'], {
    strategy: 'firstMatch',
    rules: [
      { id: 'excellent', priority: 3, when: 'applicant.creditScore >= 750', then: [{ set: 'limit', value: 10000 }] },
      { id: 'good', priority: 2, when: 'applicant.creditScore >= 650', then: [{ set: 'limit', value: 5000 }] },
      { id: 'fair', priority: 1, when: 'true', then: [{ set: 'limit', value: 1000 }] },
    ],
    tests: cases(['good score', { applicant: { creditScore: 700 } }, { limit: 5000 }]),
  }),
  ruleSet('order-routing', 'Order routing', 'Chooses the warehouse that ships an order', ['logistics'], {
    strategy: 'firstMatch',
    rules: [
      { id: 'perishable', priority: 2, when: 'order.perishable', then: [{ set: 'warehouse', value: '"cold-store-1"' }] },
      { id: 'default', priority: 1, when: 'true', then: [{ set: 'warehouse', value: '"central"' }] },
    ],
    tests: cases(['fresh food', { order: { perishable: true } }, { warehouse: 'cold-store-1' }]),
  }),
  simpleRule('vip-customer', 'VIP customer', 'Marks customers with high lifetime value', ['loyalty'], {
    when: 'customer.lifetimeValue > 50000',
    then: { vip: true },
    otherwise: { vip: false },
    tests: cases(['a big spender', { customer: { lifetimeValue: 80000 } }, { vip: true }]),
  }),
  simpleRule('free-shipping', 'Free shipping', 'Free shipping above a basket threshold', ['logistics', 'pricing'], {
    when: 'order.total >= 50',
    then: { shippingFee: 0 },
    tests: cases(['a basket of 60', { order: { total: 60 } }, { shippingFee: 0 }], ['a basket of 20', { order: { total: 20 } }, null]),
  }),
  simpleRule('age-check', 'Age check', 'Blocks age-restricted products for minors', ['compliance'], {
    parameters: [
      { name: 'customer', type: 'context' },
      { name: 'item', type: 'context' },
    ],
    when: 'customer.age < 18 and item.ageRestricted',
    then: { blocked: true, reason: '"age"' },
    otherwise: { blocked: false, reason: null },
    tests: cases(['a minor buying wine', { customer: { age: 16 }, item: { ageRestricted: true } }, { blocked: true, reason: 'age' }]),
  }),
  simpleRule('late-payment-fee', 'Late payment fee', 'Charges a fee on invoices paid late: 25 plus 1 % of the amount per week overdue', ['billing'], {
    parameters: [{ name: 'invoice', type: 'context' }],
    when: 'invoice.daysOverdue > 14',
    then: { fee: 'round half up(25 + invoice.amount * 0.01 * floor(invoice.daysOverdue / 7), 2)' },
    tests: cases(['three weeks late on 1,000', { invoice: { daysOverdue: 21, amount: 1000 } }, { fee: 55 }]),
  }),
  simpleRule('kyc-required', 'KYC required', 'Asks for identity checks on large transfers', ['compliance', 'payments'], {
    when: 'transfer.amount >= 10000',
    then: { kyc: true },
    otherwise: { kyc: false },
    tests: cases(['a large transfer', { transfer: { amount: 25000 } }, { kyc: true }]),
  }),
];

/** A workflow as authors write it (defaults left out), filled in as a save would. */
const workflow = (id: string, name: string, description: string, tags: string[], definition: WorkflowDefinitionInput): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'workflow',
  definition: workflowDefinitionSchema.parse(definition),
});

/** Workflow inputs that are each a context (a JSON object). */
const contexts = (...names: string[]) => names.map((name) => ({ name, type: 'context' as const }));

/** The demo provider's integrations (lib/local/seed.ts makes them, with their credentials). */
export const demoIntegrationIds = { risk: 'intg_demo_risk', fx: 'intg_demo_fx' } as const;

export const demoWorkflows: EntityInput[] = [
  workflow('loan-application', 'Loan application', 'Eligibility, then a credit limit for the eligible', ['lending'], {
    inputs: contexts('applicant'),
    start: 'eligibility',
    steps: [
      // No inputs: the rule is given the whole context (here, the applicant).
      { id: 'eligibility', kind: 'rule', ruleId: 'loan-eligibility', next: 'eligible' },
      { id: 'eligible', kind: 'branch', cases: [{ when: 'eligibility.eligible', next: 'limit' }], otherwise: 'declined' },
      { id: 'limit', kind: 'rule', ruleId: 'credit-limit', next: 'approved' },
      { id: 'approved', kind: 'end', output: { eligible: 'true', limit: 'limit.limit' } },
      { id: 'declined', kind: 'end', output: { eligible: 'false' } },
    ],
  }),
  workflow('checkout', 'Checkout pricing', 'Discount, tax and shipping for a basket, and what it comes to', ['pricing'], {
    inputs: contexts('customer', 'order', 'item'),
    start: 'discount',
    steps: [
      { id: 'discount', kind: 'rule', ruleId: 'discount-tier', next: 'tax' },
      { id: 'tax', kind: 'rule', ruleId: 'tax-rate', next: 'shipping' },
      { id: 'shipping', kind: 'rule', ruleId: 'shipping-cost', inputs: { order: 'order' }, next: 'done' },
      {
        id: 'done',
        kind: 'end',
        output: {
          discount: 'discount.discount',
          taxRate: 'tax.rate',
          shippingFee: 'shipping.fee',
          total: 'decimal(order.total * (1 - discount.discount) * (1 + tax.rate) + shipping.fee, 2)',
        },
      },
    ],
  }),
  workflow(
    'payment-review',
    'Payment review',
    "Screens a payment with a rule, asks the risk provider for a score, and decides on the provider's answer",
    ['payments', 'risk'],
    {
      inputs: contexts('payment', 'card', 'ip', 'customer'),
      start: 'screen',
      steps: [
        { id: 'screen', kind: 'rule', ruleId: 'fraud-screening', next: 'score' },
        {
          id: 'score',
          kind: 'apiRequest',
          // The integration holds the provider's URL and the credential sent in the X-Api-Key header.
          request: {
            method: 'POST',
            integrationId: demoIntegrationIds.risk,
            path: '/v1/risk-score',
            body: '{amount: payment.amount, flags: screen.risk.flags, ruleScore: screen.risk.score}',
          },
          next: 'decide',
        },
        {
          id: 'decide',
          kind: 'branch',
          cases: [
            { when: 'score.body.decision = "approve"', next: 'approve' },
            { when: 'score.body.decision = "review"', next: 'review' },
          ],
          otherwise: 'decline',
        },
        { id: 'approve', kind: 'end', output: { decision: '"approve"', score: 'score.body.score' } },
        { id: 'review', kind: 'end', output: { decision: '"review"', score: 'score.body.score', reasons: 'score.body.reasons' } },
        { id: 'decline', kind: 'end', output: { decision: '"decline"', score: 'score.body.score', reasons: 'score.body.reasons' } },
      ],
      settings: { recordExecutions: true },
    },
  ),
  workflow('price-in-currency', 'Price in another currency', "Converts a price at the provider's exchange rate (its key goes in the query)", ['pricing'], {
    inputs: [
      { name: 'price', type: 'number' },
      { name: 'currency', type: 'string' },
    ],
    start: 'rate',
    steps: [
      {
        id: 'rate',
        kind: 'apiRequest',
        request: { method: 'GET', integrationId: demoIntegrationIds.fx, path: '/v1/fx-rate', query: { from: '"EUR"', to: 'currency' } },
        next: 'done',
      },
      { id: 'done', kind: 'end', output: { price: 'decimal(price * rate.body.rate, 2)', currency: 'currency', rate: 'rate.body.rate' } },
    ],
  }),
];

/** Published as v1, then edited, so the working copy differs from the published version. */
export const editedAfterPublishing = {
  id: 'shipping-cost',
  edit: (rule: EntityInput): EntityInput => ({ ...rule, description: `${rule.description} (2027 rates, not yet published)` }),
};

/** Rules that only the demo Git remote holds, so that the first pull of main shows something added. */
export const remoteOnlyRules: EntityInput[] = [
  simpleRule('express-delivery', 'Express delivery', 'Offers next-day delivery for small domestic parcels', ['logistics'], {
    when: 'order.destination.zone = "domestic" and order.weightKg <= 5',
    then: { express: true },
    otherwise: { express: false },
    tests: cases(['a small domestic parcel', { order: { destination: { zone: 'domestic' }, weightKg: 2 } }, { express: true }]),
  }),
];
