import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../../../eslint/till-plugin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rules lint reports for a real file of the server with `extra` added to it. */
async function rulesBroken(file: string, extra: string): Promise<string[]> {
  const path = `${root}packages/server/src/${file}`;
  const [result] = await eslint.lintText(`${readFileSync(path, 'utf8')}\n${extra}\n`, { filePath: path });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("the server's layers, as lint holds them", () => {
  it('passes the files as they are', async () => {
    expect(await rulesBroken('modules/store/grants.ts', '')).toEqual([]);
    expect(await rulesBroken('flows/checkout.ts', '')).toEqual([]);
    expect(await rulesBroken('config.ts', '')).toEqual([]);
    expect(await rulesBroken('modules/payments/providers/stripe/config.ts', '')).toEqual([]);
  });

  it("lets config.ts compose the providers' variables, and keeps those to the platform", async () => {
    // config.ts is platform: it may read a provider's config.ts, and nothing else of the module.
    expect(
      await rulesBroken(
        'config.ts',
        "export { paymentwallConfig } from './modules/payments/providers/paymentwall/config.js';",
      ),
    ).toEqual([]);
    expect(
      await rulesBroken('config.ts', "export { widgetUrl } from './modules/payments/providers/paymentwall/widget.js';"),
    ).toContain('till/server-layers');
    expect(
      await rulesBroken(
        'modules/payments/providers/stripe/config.ts',
        "export { sessionParams } from './session-params.js';",
      ),
    ).toContain('till/server-layers');
  });

  it('refuses an import circle, a type-only one too', async () => {
    // orders.ts imports grants.ts: grants importing orders back closes a circle.
    const broken = await rulesBroken('modules/store/grants.ts', "export { payOrder } from './orders.js';");
    expect(broken).toContain('till/no-import-cycle');
    const typeOnly = await rulesBroken('modules/store/grants.ts', "export type { PayOptions } from './orders.js';");
    expect(typeOnly).toContain('till/no-import-cycle');
  });

  it('refuses a module importing another module', async () => {
    const broken = await rulesBroken(
      'modules/store/catalog.ts',
      "export { AccountsModule } from '../accounts/index.js';",
    );
    expect(broken).toContain('till/server-layers');
  });

  it('refuses a module importing the flows, and the platform importing a module', async () => {
    expect(await rulesBroken('modules/payments/events.ts', "export { Flows } from '../../flows/index.js';")).toContain(
      'till/server-layers',
    );
    expect(await rulesBroken('db/rows.ts', "export { StoreModule } from '../modules/store/index.js';")).toContain(
      'till/server-layers',
    );
  });

  it("refuses a flow reaching past a module's entry", async () => {
    const broken = await rulesBroken('flows/checkout.ts', "export { toCoupon } from '../modules/store/coupons.js';");
    expect(broken).toContain('till/server-layers');
    expect(await rulesBroken('flows/checkout.ts', "export { toOrder } from '../modules/store/index.js';")).toEqual([]);
  });
});

describe('the test support, as lint holds it', () => {
  it('is refused to the server outside its tests, by package and through testing.ts', async () => {
    expect(await rulesBroken('db/rows.ts', "export { startTestApp } from '@till/test-support/app';")).toContain(
      'no-restricted-imports',
    );
    expect(await rulesBroken('modules/store/grants.ts', "export { HashPool } from '../../testing.js';")).toContain(
      'till/server-layers',
    );
    expect(await rulesBroken('flows/checkout.ts', "export { HashPool } from '@till/server/testing';")).toContain(
      'no-restricted-imports',
    );
  });

  it("is open to the server's tests", async () => {
    expect(await rulesBroken('config.test.ts', '')).toEqual([]);
    expect(await rulesBroken('modules/store/coupons.test.ts', '')).toEqual([]);
  });
});

describe('import circles, type-only imports included', () => {
  it.each([
    'packages/protocol/src',
    'packages/client/src',
    'packages/server/src',
    'packages/test-support/src',
    'apps/web/src',
  ])('has none in %s', (dir) => {
    expect(importCircles(`${root}${dir}`, { '@/': `${root}apps/web/src/` })).toEqual([]);
  });

  it('finds one where there is one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'till-circle-'));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B[];\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a: A }\n");
    writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
    try {
      expect(importCircles(dir).map((c) => c.map((f) => f.slice(dir.length + 1)))).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
