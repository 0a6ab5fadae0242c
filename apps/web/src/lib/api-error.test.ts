import { describe, expect, it } from 'vitest';
import en from '@/i18n/en.json';
import screens from '@/i18n/en.screens.json';
import de from '@/i18n/de.json';
import { ApiError, messageKeys, messageValues, parameterNames, type FailureBody } from './api-error';
import { Translator, type Texts } from './translator';

const fail = (body: Record<string, unknown>) => new ApiError(body as unknown as FailureBody);

describe('messageKeys', () => {
  it('without a scope: field and reason, reason, then the code', () => {
    expect(messageKeys(fail({ code: 907, parameter: 'file.name', reason: 'too_large' }))).toEqual([
      'reasons.907.file.too_large',
      'reasons.907.too_large',
      'reasons.907.any',
      'errors.907',
      'errors.unknown',
    ]);
  });

  it("with a scope: the scope's keys first (last part of the parameter, then first), then the general chain", () => {
    expect(messageKeys(fail({ code: 907, parameter: 'coupon.usageLimit', reason: 'too_short' }), 'admin')).toEqual([
      'admin.reasons.907.usageLimit.too_short',
      'admin.reasons.907.coupon.too_short',
      'admin.reasons.907.too_short',
      'admin.reasons.907.any',
      'reasons.907.coupon.too_short',
      'reasons.907.too_short',
      'reasons.907.any',
      'errors.907',
      'errors.unknown',
    ]);
  });

  it('with a scope: a one-part parameter is tried once, no reason leaves the code alone', () => {
    expect(messageKeys(fail({ code: 907, parameter: 'alias', reason: 'taken' }), 'admin').slice(0, 3)).toEqual([
      'admin.reasons.907.alias.taken',
      'admin.reasons.907.taken',
      'admin.reasons.907.any',
    ]);
    expect(messageKeys(fail({ code: 903 }), 'admin')).toEqual([
      'admin.reasons.903.any',
      'reasons.903.any',
      'errors.903',
      'errors.unknown',
    ]);
  });

  it('with a scope: a thrown non-failure is a 905 of the scope, then of the app', () => {
    expect(messageKeys(new Error('boom'), 'admin')).toEqual([
      'admin.reasons.905.any',
      'reasons.905.any',
      'errors.905',
      'errors.unknown',
    ]);
  });
});

describe('parameterNames', () => {
  it('answers the last part, then the first, once each', () => {
    expect(parameterNames('product.grants.period')).toEqual(['period', 'product']);
    expect(parameterNames('alias')).toEqual(['alias']);
    expect(parameterNames(undefined)).toEqual([]);
  });
});

describe('messageValues', () => {
  it('names the field, parameter and status in words when given a namer, the raw names else', () => {
    const error = fail({ code: 912, parameter: 'coupon.usageLimit', status: 'refunded', reason: 'state' });
    expect(messageValues(error)).toMatchObject({ field: 'usageLimit', parameter: 'usageLimit', status: 'refunded' });
    const named = messageValues(error, {}, (kind, raw) => `${kind}:${raw}`);
    expect(named).toMatchObject({
      field: 'fields:usageLimit',
      parameter: 'fields:usageLimit',
      status: 'status:refunded',
    });
    expect(named.reason).toBe('state');
  });

  it('calls a missing parameter "input" and leaves a missing status empty', () => {
    expect(messageValues(fail({ code: 907 }), {}, (_k, raw) => raw.toUpperCase())).toMatchObject({
      field: 'INPUT',
      status: '',
    });
  });
});

/** The administrator's messages as the admin screens build them (`useErrorMessage('admin')`). */
function adminMessage(language: 'en' | 'de') {
  const i18n = new Translator(language, { en: en as Texts, de: de as Texts });
  i18n.addTexts('en', screens as Texts);
  const t = i18n.fixedT(language);
  const name = (kind: 'fields' | 'status', raw: string) => t(`admin.${kind}.${raw}`, { defaultValue: raw });
  return (body: Record<string, unknown>) => {
    const error = fail(body);
    return t(messageKeys(error, 'admin'), messageValues(error, {}, name));
  };
}

describe('an administrator reads', () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [
      { code: 903 },
      'Only administrators may do this. If you were one, your level has been changed: reload the page.',
      'Das dürfen nur Administratoren. Falls du einer warst, wurde deine Stufe geändert: Lade die Seite neu.',
    ],
    [
      { code: 904, parameter: 'coupon.code' },
      'Not found: Code does not exist (any more). Reload the list.',
      'Nicht gefunden: Code gibt es nicht (mehr). Liste neu laden.',
    ],
    [
      { code: 907, parameter: 'coupon.usageLimit', reason: 'too_short' },
      'The limit is below the uses already made; raise it or switch the coupon off.',
      'Das Limit liegt unter den bereits erfolgten Einlösungen; erhöhen oder den Gutschein abschalten.',
    ],
    [
      { code: 907, parameter: 'product.grants.period', reason: 'required' },
      'A subscription needs a period.',
      'Ein Abo braucht einen Zeitraum.',
    ],
    [
      { code: 907, parameter: 'coupon.usageLimit', reason: 'too_long' },
      'Uses in total is too long or too high.',
      'Einlösungen insgesamt ist zu lang oder zu hoch.',
    ],
    [{ code: 907, parameter: 'coupon.prefix', reason: 'odd' }, 'Prefix is not valid.', 'Präfix ist ungültig.'],
    [
      { code: 909, balance: 4 },
      'That would take the balance (4) below zero.',
      'Damit fiele der Stand (4 Credits) unter null.',
    ],
    [
      { code: 912, reason: 'credits_spent' },
      'The buyer has already spent the credits this order granted, so it cannot be refunded whole. Refund the money only instead.',
      'Die Credits dieser Bestellung sind schon ausgegeben, daher ist keine vollständige Erstattung möglich. Stattdessen nur das Geld erstatten.',
    ],
    [
      { code: 912, reason: 'state', status: 'refunded' },
      'Not possible while the order is refunded. Reload to see its current state.',
      'Nicht möglich, solange die Bestellung erstattet ist. Neu laden, um den aktuellen Stand zu sehen.',
    ],
    [
      { code: 910, reason: 'card_declined' },
      "The payment provider refused (card_declined). Try again later or in the provider's dashboard.",
      'Der Zahlungsanbieter hat abgelehnt (card_declined). Später erneut versuchen oder im Dashboard des Anbieters.',
    ],
    [
      { code: 906, retryAfter: 30 },
      'Too many attempts; try again in 30 s.',
      'Zu viele Versuche; bitte in 30 s erneut versuchen.',
    ],
  ];
  it.each(cases)('%j in English and German', (body, english, german) => {
    expect(adminMessage('en')(body)).toBe(english);
    expect(adminMessage('de')(body)).toBe(german);
  });

  it('the general message where the admin texts have none (a lost connection)', () => {
    const i18n = new Translator('en', { en: en as Texts });
    i18n.addTexts('en', screens as Texts);
    expect(adminMessage('en')({ code: 905 })).toBe(i18n.t('errors.905'));
  });
});
