import { describe, it } from 'vitest';
import { ruleHelpers, useConsoleBrowser } from './browser.ts';
describe('debug', { timeout: 60_000 }, () => {
  const t = useConsoleBrowser();
  it('d', async () => {
    const page = await t.signedIn();
    const { openRule, fillCell, gridCell } = ruleHelpers(t);
    await openRule(page, 'loan-eligibility');
    const ageCell = await gridCell(page, 2, 'applicant.age');
    await fillCell(page, 2, 'applicant.age', '<< 3');
    await fillCell(page, 3, 'eligible', 'maybe +');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    console.log('alert', await page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent());
    await new Promise((r) => setTimeout(r, 1500));
    console.log('age', await ageCell.textContent(), await ageCell.getAttribute('aria-invalid'), await ageCell.getAttribute('class'));
    console.log('cells', await page.evaluate(() => [...document.querySelectorAll('td[aria-invalid]')].map((x) => x.id + ' ' + x.textContent)));
  });
});
