import { launchBrowser, seriousAxeViolations } from '../support/browser';

describe('the browser the UI tests drive', () => {
  it('renders a page and reports a serious accessibility violation through axe-core', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent('<html lang="en"><head><title>t</title></head><body><main><img src="x.png"></main></body></html>');
      const violations = await seriousAxeViolations(page);
      expect(violations.map((violation) => violation.id)).toContain('image-alt');
    } finally {
      await browser.close();
    }
  });
});
