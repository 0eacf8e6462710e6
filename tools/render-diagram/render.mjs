// Renders a BPMN diagram to PNG as Camunda Modeler draws it (bpmn-js), in the system's headless
// Chromium: puppeteer-core never downloads a browser. Used for the screenshot in docs/agents-in-modeler.md:
//   node render.mjs <diagram.bpmn> <out.png> [scale]
// CHROMIUM (default /usr/bin/chromium) names another Chromium or Chrome.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import puppeteer from 'puppeteer-core';

const [diagram, out, scale = '1.5'] = process.argv.slice(2);
if (!diagram || !out) {
  console.error('usage: node render.mjs <diagram.bpmn> <out.png> [scale]');
  process.exit(2);
}

const require = createRequire(import.meta.url);
const bpmnJs = dirname(require.resolve('bpmn-js/package.json'));

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start
  args: ['--no-sandbox', '--disable-gpu'],
  headless: true
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 2400, height: 1200, deviceScaleFactor: Number(scale) });
  await page.setContent('<!doctype html><html><body style="margin:0;background:#fff"><div id="canvas"'
    + ' style="width:2400px;height:1200px"></div></body></html>');
  for (const css of ['diagram-js.css', 'bpmn-js.css', 'bpmn-font/css/bpmn.css']) {
    await page.addStyleTag({ path: join(bpmnJs, 'dist/assets', css) });
  }
  await page.addScriptTag({ path: join(bpmnJs, 'dist/bpmn-viewer.production.min.js') });

  const box = await page.evaluate(async (xml) => {
    const viewer = new window.BpmnJS({ container: '#canvas' });
    const { warnings } = await viewer.importXML(xml);
    if (warnings.length) {
      throw new Error('bpmn-js warnings: ' + warnings.map(w => w.message).join('; '));
    }
    const canvas = viewer.get('canvas');
    canvas.zoom(1);
    const inner = canvas.viewbox().inner;
    const margin = 20;
    canvas.viewbox({ x: inner.x - margin, y: inner.y - margin, width: 2400, height: 1200 });
    return { width: Math.ceil(inner.width + 2 * margin), height: Math.ceil(inner.height + 2 * margin) };
  }, readFileSync(diagram, 'utf8'));

  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: box.width, height: box.height } });
  console.log(`${out}: ${box.width} x ${box.height} at scale ${scale}`);
} finally {
  await browser.close();
}
