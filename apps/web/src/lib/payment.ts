import type { PaymentInstruction } from '@till/protocol';

/**
 * Sends the browser to pay: opens the provider's page, or posts its form. A full navigation on
 * purpose: the provider's page is not part of the app and brings the buyer back to the order page.
 */
export function goToPayment(payment: PaymentInstruction, win: Window = window): void {
  if ('url' in payment) {
    win.location.assign(payment.url);
    return;
  }
  const doc = win.document;
  const form = doc.createElement('form');
  form.method = payment.form.method;
  form.action = payment.form.action;
  for (const [name, value] of Object.entries(payment.form.fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
}
