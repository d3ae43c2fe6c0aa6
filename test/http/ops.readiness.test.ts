import { expect, it } from 'vitest';
import { call, createTestApp } from '../helpers/app.js';
import { availableStores } from '../helpers/stores.js';

const stores = await availableStores();

it.each(stores)(
  '/readyz answers 503 once the store stops answering, while /healthz (the process) stays 200 [%s]',
  async (storeName) => {
    const t = await createTestApp(storeName);
    try {
      expect((await call(t.app, 'GET', '/readyz')).status).toBe(200);
      await t.store.close(); // every query now fails inside the driver
      const ready = await call(t.app, 'GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable' });
      expect(JSON.stringify(ready.body)).not.toMatch(/sqlite|postgres|pool|destroy|error/i);
      expect((await call(t.app, 'GET', '/healthz')).status).toBe(200);
    } finally {
      await t.app.close();
    }
  },
);
