import type { Browser, Page } from 'playwright-core';
import { procedureTable } from '../../api/http/procedure-table';
import { appRouter } from '../../api/router';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';

/**
 * `/docs` in a real browser (Debian's Chromium): the reference renders from the API's own
 * files, lists every operation the API routes, and "Try it out" with the root key gets a 200.
 */

const platform = usePlatform();
let browser: Browser;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${platform.baseUrl}/docs`);
  await page.locator('.opblock-summary-path').first().waitFor({ timeout: 30_000 });
}, 60_000);

afterAll(() => browser?.close());

describe('the API reference page', () => {
  it('loads every file from this server: no CDN', () => {
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins]).toEqual([platform.baseUrl]);
    expect(requested.map((url) => new URL(url).pathname)).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/openapi.json']));
  });

  it('lists every operation the API routes, each once', async () => {
    const listed = await page.locator('.opblock-summary-path').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')));
    expect([...listed].sort()).toEqual([...procedureTable(appRouter).keys()].sort());
  });

  it('serves a document whose every operation asks for the bearer key and has a request example', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.entries(document.paths).map(([path, item]) => [path, (item as { post: any }).post] as const);
    expect(operations.filter(([, post]) => JSON.stringify(post.security) !== JSON.stringify([{ bearer: [] }])).map(([path]) => path)).toEqual([]);
    expect(operations.filter(([, post]) => post.requestBody?.content['application/json'].example === undefined).map(([path]) => path)).toEqual([]);
  });

  it('shows an operation’s responses: reports/download answers 303 with its Location header, errors with the envelope', async () => {
    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v2/reports/download"]') });
    await operation.locator('.opblock-summary-control').click();
    const responses = operation.locator('.responses-wrapper');
    await responses.waitFor();
    const codes = await responses.locator('tr.response').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));
    expect(codes).toEqual(['303', '400', '401', '403', '404', '413', '422', '429', '500']);
    expect(await responses.locator('tr.response[data-code="303"]').innerText()).toContain('Location');
    expect(await responses.locator('tr.response[data-code="422"]').innerText()).toContain('code');
    await operation.locator('.opblock-summary-control').click();
  });

  it('shows customers/create’s own 422 codes with when each is answered, and its realistic example in “Try it out”', async () => {
    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v2/customers/create"]') });
    await operation.locator('.opblock-summary-control').click();
    const unprocessable = operation.locator('.responses-wrapper tr.response[data-code="422"]');
    await unprocessable.waitFor();
    const described = await unprocessable.innerText();
    for (const code of ['CHANNEL_NOT_FOUND', 'INVALID_DEFAULT_PAYMENT_INSTRUMENT', 'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE', 'IDEMPOTENCY_KEY_REUSED']) {
      expect(described).toContain(code);
    }
    expect(described).not.toContain('INVALID_TAX_REGISTRATION_VALIDATION_UPDATE');
    await operation.locator('button.try-out__btn').click();
    const body = JSON.parse(await operation.locator('textarea.body-param__text').inputValue());
    expect(body).toMatchObject({ first_name: 'Anna', last_name: 'Schmidt', phone: '+4915112345678', address: { city: 'Berlin', country: 'DEU' } });
    await operation.locator('button.try-out__btn').click();
    await operation.locator('.opblock-summary-control').click();
  });

  it('tries customers/list with the root key and shows the 200', async () => {
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(platform.rootSecret);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v2/customers/list"]') });
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();

    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.waitFor({ timeout: 30_000 });
    expect((await status.innerText()).trim()).toBe('200');
    const curl = await operation.locator('.curl-command').innerText();
    expect(curl).toContain(`Authorization: Bearer ${platform.rootSecret}`);
    expect(curl).toContain(`${platform.baseUrl}/v2/customers/list`);
  });
});
