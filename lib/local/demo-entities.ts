/** The demo workspace's rules and workflows: realistic enough to try every list filter and kind. */
import type { EntityInput } from '../entities/schema.ts';

const decisionTable = (
  id: string,
  name: string,
  description: string,
  tags: string[],
  inputs: [string, string, 'string' | 'number' | 'boolean'][],
  output: [string, 'string' | 'number' | 'boolean'],
  rows: [string[], unknown][],
): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'decisionTable',
  definition: {
    hitPolicy: 'first',
    inputs: inputs.map(([inputId, expression, type]) => ({ id: inputId, expression, type })),
    outputs: [{ id: output[0], name: output[0], type: output[1] }],
    rules: rows.map(([when, value]) => ({ when, then: [value] })),
  },
});

const simpleRule = (id: string, name: string, description: string, tags: string[], when: string, then: Record<string, unknown>, otherwise?: Record<string, unknown>): EntityInput => ({
  id,
  name,
  description,
  tags,
  type: 'simpleRule',
  definition: { when, then, ...(otherwise && { otherwise }) },
});

export const demoRules: EntityInput[] = [
  decisionTable('shipping-cost', 'Shipping cost', 'Shipping fee by destination zone and parcel weight', ['logistics'],
    [['zone', 'order.destination.zone', 'string'], ['weight', 'order.weightKg', 'number']], ['fee', 'number'],
    [[['"domestic"', '<= 2'], 4.9], [['"domestic"', '> 2'], 8.9], [['"eu"', '-'], 14.5], [['-', '-'], 29]]),
  decisionTable('loan-eligibility', 'Loan eligibility', 'Decides whether an applicant may apply for a personal loan', ['credit', 'lending'],
    [['age', 'applicant.age', 'number'], ['score', 'applicant.creditScore', 'number']], ['eligible', 'boolean'],
    [[['< 18', '-'], false], [['-', '< 580'], false], [['-', '>= 580'], true]]),
  decisionTable('discount-tier', 'Discount tier', 'Loyalty discount by membership level and basket size', ['pricing', 'loyalty'],
    [['level', 'customer.membership', 'string'], ['basket', 'order.total', 'number']], ['discount', 'number'],
    [[['"gold"', '>= 100'], 0.15], [['"gold"', '-'], 0.1], [['"silver"', '-'], 0.05], [['-', '-'], 0]]),
  decisionTable('insurance-premium', 'Insurance premium band', 'Premium band from driver age and vehicle class', ['insurance'],
    [['age', 'driver.age', 'number'], ['vehicle', 'vehicle.class', 'string']], ['band', 'string'],
    [[['< 25', '"sport"'], 'E'], [['< 25', '-'], 'D'], [['-', '"sport"'], 'C'], [['-', '-'], 'B']]),
  decisionTable('tax-rate', 'VAT rate', 'Value-added tax rate by country and product category', ['pricing', 'tax'],
    [['country', 'order.country', 'string'], ['category', 'item.category', 'string']], ['rate', 'number'],
    [[['"DE"', '"food"'], 0.07], [['"DE"', '-'], 0.19], [['"FR"', '"food"'], 0.055], [['"FR"', '-'], 0.2]]),
  {
    id: 'fraud-screening',
    name: 'Fraud screening',
    description: 'Scores a payment for fraud signals',
    tags: ['payments', 'risk'],
    type: 'ruleSet',
    definition: {
      strategy: 'allMatch',
      rules: [
        { id: 'new-card-high-amount', priority: 10, when: 'payment.amount > 1000 and card.ageDays < 7', then: [{ set: 'risk.score', value: 60 }] },
        { id: 'country-mismatch', priority: 5, when: 'card.country != ip.country', then: [{ set: 'risk.flags.countryMismatch', value: true }] },
        { id: 'velocity', priority: 1, when: 'card.paymentsLastHour > 5', then: [{ set: 'risk.flags.velocity', value: true }] },
      ],
    },
  },
  {
    id: 'credit-limit',
    name: 'Credit limit',
    description: 'Initial credit limit for a new account',
    tags: ['credit'],
    type: 'ruleSet',
    definition: {
      strategy: 'firstMatch',
      rules: [
        { id: 'excellent', priority: 3, when: 'applicant.creditScore >= 750', then: [{ set: 'limit', value: 10000 }] },
        { id: 'good', priority: 2, when: 'applicant.creditScore >= 650', then: [{ set: 'limit', value: 5000 }] },
        { id: 'fair', priority: 1, when: 'true', then: [{ set: 'limit', value: 1000 }] },
      ],
    },
  },
  {
    id: 'order-routing',
    name: 'Order routing',
    description: 'Chooses the warehouse that ships an order',
    tags: ['logistics'],
    type: 'ruleSet',
    definition: {
      strategy: 'firstMatch',
      rules: [
        { id: 'perishable', priority: 2, when: 'order.perishable', then: [{ set: 'warehouse', value: 'cold-store-1' }] },
        { id: 'default', priority: 1, when: 'true', then: [{ set: 'warehouse', value: 'central' }] },
      ],
    },
  },
  simpleRule('vip-customer', 'VIP customer', 'Marks customers with high lifetime value', ['loyalty'], 'customer.lifetimeValue > 50000', { vip: true }, { vip: false }),
  simpleRule('free-shipping', 'Free shipping', 'Free shipping above a basket threshold', ['logistics', 'pricing'], 'order.total >= 50', { shippingFee: 0 }),
  simpleRule('age-check', 'Age check', 'Blocks age-restricted products for minors', ['compliance'], 'customer.age < 18 and item.ageRestricted', { blocked: true, reason: 'age' }),
  simpleRule('late-payment-fee', 'Late payment fee', 'Charges a fee on invoices paid late', ['billing'], 'invoice.daysOverdue > 14', { fee: 25 }),
  simpleRule('kyc-required', 'KYC required', 'Asks for identity checks on large transfers', ['compliance', 'payments'], 'transfer.amount >= 10000', { kyc: true }),
];

export const demoWorkflows: EntityInput[] = [
  {
    id: 'loan-application',
    name: 'Loan application',
    description: 'Eligibility, fraud screening and credit limit for a loan request',
    tags: ['lending'],
    type: 'workflow',
    definition: {
      start: 'eligibility',
      steps: [
        { id: 'eligibility', kind: 'rule', ruleId: 'loan-eligibility', next: 'eligible' },
        { id: 'eligible', kind: 'branch', cases: [{ when: 'eligible', next: 'limit' }], otherwise: 'done' },
        { id: 'limit', kind: 'rule', ruleId: 'credit-limit', next: 'done' },
        { id: 'done', kind: 'end' },
      ],
    },
  },
  {
    id: 'checkout',
    name: 'Checkout pricing',
    description: 'Discount, tax and shipping for a basket',
    tags: ['pricing'],
    type: 'workflow',
    definition: {
      start: 'discount',
      steps: [
        { id: 'discount', kind: 'rule', ruleId: 'discount-tier', next: 'tax' },
        { id: 'tax', kind: 'rule', ruleId: 'tax-rate', next: 'shipping' },
        { id: 'shipping', kind: 'rule', ruleId: 'shipping-cost', next: 'done' },
        { id: 'done', kind: 'end' },
      ],
    },
  },
  {
    id: 'payment-review',
    name: 'Payment review',
    description: 'Screens a payment and reports the score to the risk provider',
    tags: ['payments', 'risk'],
    type: 'workflow',
    definition: {
      start: 'screen',
      steps: [
        { id: 'screen', kind: 'rule', ruleId: 'fraud-screening', next: 'report' },
        { id: 'report', kind: 'apiRequest', request: { method: 'POST', url: 'https://risk.example.com/v1/scores' }, next: 'done' },
        { id: 'done', kind: 'end' },
      ],
    },
  },
];

/** Published as v1, then edited, so the working copy differs from the published version. */
export const editedAfterPublishing = {
  id: 'shipping-cost',
  edit: (rule: EntityInput): EntityInput => ({ ...rule, description: `${rule.description} (2027 rates, not yet published)` }),
};

/** Rules that only the demo Git remote holds, so that the first pull of main shows something added. */
export const remoteOnlyRules: EntityInput[] = [
  simpleRule('express-delivery', 'Express delivery', 'Offers next-day delivery for small domestic parcels', ['logistics'],
    'order.destination.zone = "domestic" and order.weightKg <= 5', { express: true }, { express: false }),
];
