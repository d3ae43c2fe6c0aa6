import { feature, type FeatureEnv } from '../feature.js';
import { InvoiceMailSender } from './invoice-mail.sender.js';

/**
 * Invoice mail (docs/invoice-documents.md "E-mail"): no operation of its own; with SMTP_URL set, this
 * process's sender runs from the app's start to its close, woken by the creates this process commits.
 */
function invoiceMailContext({ deps, services }: FeatureEnv): { sender: InvoiceMailSender | null } {
  const { smtpUrl, mailFrom } = deps.config;
  if (smtpUrl === null || mailFrom === null) return { sender: null };
  const sender = new InvoiceMailSender(
    deps.store,
    { ...deps.config, smtpUrl, mailFrom },
    services.leadContexts,
    () => deps.clock.now(),
    deps.logger || undefined,
  );
  services.mail.onQueued(() => sender.wake());
  return { sender };
}

export const invoiceMailFeature = feature({
  sections: [],
  context: invoiceMailContext,
  install(app, { sender }, shutdown) {
    if (!sender) return;
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', () => shutdown.run('invoice mail sender', () => sender.stop()));
  },
});
