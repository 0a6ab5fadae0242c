import { escapeHtml } from '../http/html.js';

/** The mails Till sends, each with a plain-text and an HTML body. */
export type MailKind =
  | 'confirm'
  | 'reset'
  | 'email_change_notice'
  | 'email_change_confirm'
  | 'new_device'
  | 'second_factor_reset'
  | 'account_deleted'
  | 'security_notice'
  | 'social_link';

/** The changes a `security_notice` tells the owner of. */
export type SecurityChange =
  | 'password_changed'
  | 'email_changed'
  | 'totp_enabled'
  | 'totp_disabled'
  | 'passkey_added'
  | 'passkey_removed'
  | 'recovery_code_used'
  | 'recovery_codes_renewed'
  | 'social_linked'
  | 'social_unlinked';

/** What a mail's text is made from. */
export interface MailValues {
  link?: string;
  newEmail?: string;
  /** A sign-in's browser and system, address and time (new-device notice). */
  device?: string;
  ip?: string;
  at?: string;
  /** What changed (security notice). */
  change?: SecurityChange;
  /** The sign-in provider linked or unlinked (its name on the button). */
  provider?: string;
}

interface Texts {
  subject: string;
  intro: string;
  action?: string;
  outro: string;
}

type Catalog = Record<MailKind, (v: { name: string } & MailValues) => Texts>;

/** What each change is called in a notice; `{newEmail}` stands for the new address. */
const enChanges: Record<SecurityChange, string> = {
  password_changed: 'the password of your Till account was changed',
  email_changed: 'the e-mail address of your Till account was changed to {newEmail}',
  totp_enabled: 'two-step sign-in (an authenticator app) was turned on for your Till account',
  totp_disabled: 'two-step sign-in was turned off for your Till account',
  passkey_added: 'a passkey was added to your Till account',
  passkey_removed: 'a passkey was removed from your Till account',
  recovery_code_used: 'one of the recovery codes of your Till account was used',
  recovery_codes_renewed: 'new recovery codes were made for your Till account; the ones you had before no longer work',
  social_linked: 'sign-in with {provider} was linked to your Till account',
  social_unlinked: 'sign-in with {provider} was removed from your Till account',
};
const deChanges: Record<SecurityChange, string> = {
  password_changed: 'das Passwort deines Till-Kontos wurde geändert',
  email_changed: 'die E-Mail-Adresse deines Till-Kontos wurde auf {newEmail} geändert',
  totp_enabled: 'die Anmeldung in zwei Schritten (Authenticator-App) wurde für dein Till-Konto eingeschaltet',
  totp_disabled: 'die Anmeldung in zwei Schritten wurde für dein Till-Konto abgeschaltet',
  passkey_added: 'deinem Till-Konto wurde ein Passkey hinzugefügt',
  passkey_removed: 'aus deinem Till-Konto wurde ein Passkey entfernt',
  recovery_code_used: 'einer der Wiederherstellungscodes deines Till-Kontos wurde benutzt',
  recovery_codes_renewed:
    'für dein Till-Konto wurden neue Wiederherstellungscodes erstellt; deine bisherigen gelten nicht mehr',
  social_linked: 'die Anmeldung mit {provider} wurde mit deinem Till-Konto verknüpft',
  social_unlinked: 'die Anmeldung mit {provider} wurde von deinem Till-Konto entfernt',
};
const changeText = (texts: Record<SecurityChange, string>, v: MailValues) =>
  (v.change ? texts[v.change] : '').replace('{newEmail}', v.newEmail ?? '').replace('{provider}', v.provider ?? '');

const en: Catalog = {
  confirm: ({ name }) => ({
    subject: 'Confirm your e-mail for Till',
    intro: `Hello ${name}, welcome to Till. Please confirm your e-mail address.`,
    action: 'Confirm e-mail',
    outro: 'The link works for 24 hours. If you did not register, ignore this message.',
  }),
  reset: ({ name }) => ({
    subject: 'Reset your Till password',
    intro: `Hello ${name}, someone asked to reset the password of your Till account.`,
    action: 'Choose a new password',
    outro: 'The link works for 1 hour. If it was not you, ignore this message: your password stays as it is.',
  }),
  email_change_notice: ({ name, newEmail }) => ({
    subject: 'Your Till e-mail address is changing',
    intro: `Hello ${name}, a change of your account's e-mail address to ${newEmail ?? ''} was asked for.`,
    outro: 'It takes effect once the new address is confirmed. If it was not you, change your password now.',
  }),
  email_change_confirm: ({ name }) => ({
    subject: 'Confirm your new e-mail for Till',
    intro: `Hello ${name}, please confirm this address as the new e-mail of your Till account.`,
    action: 'Confirm new e-mail',
    outro: 'The link works for 24 hours.',
  }),
  new_device: ({ name, device, ip, at }) => ({
    subject: 'New sign-in to your Till account',
    intro: `Hello ${name}, your Till account was signed in to from a device not seen before: ${device ?? ''}, address ${ip ?? ''}, at ${at ?? ''}.`,
    outro:
      'If it was you, there is nothing to do. If not, change your password now and end your other sessions in your profile.',
  }),
  second_factor_reset: ({ name }) => ({
    subject: 'The second factor of your Till account was turned off',
    intro: `Hello ${name}, an administrator turned off the two-step sign-in of your Till account, as asked for.`,
    outro:
      'You sign in with your password alone until you set up a new authenticator in your profile. If you did not ask for this, contact us now.',
  }),
  social_link: ({ name, provider }) => ({
    subject: `Link ${provider ?? ''} to your Till account`,
    intro: `Hello ${name}, someone signing in with ${provider ?? ''} asked to link it to your Till account. Follow the link to allow it.`,
    action: `Link ${provider ?? ''}`,
    outro: 'The link works for 24 hours. If it was not you, ignore this message: nothing is linked.',
  }),
  account_deleted: ({ name }) => ({
    subject: 'Your Till account has been deleted',
    intro: `Hello ${name}, your Till account has been deleted: its sessions, passkeys, files and personal details are gone.`,
    outro:
      'Orders and credit records are kept without your name or address, as bookkeeping requires. If you did not ask for this, reply to this message.',
  }),
  security_notice: (v) => ({
    subject: 'A change to your Till account',
    intro: `Hello ${v.name}, ${changeText(enChanges, v)}${v.at ? ` (${v.at})` : ''}.`,
    action: 'This was not me: reset my password',
    outro:
      'If it was you, there is nothing to do. If not, reset your password with the link above: that ends every session and removes every passkey.',
  }),
};

const de: Catalog = {
  confirm: ({ name }) => ({
    subject: 'Bestätige deine E-Mail-Adresse für Till',
    intro: `Hallo ${name}, willkommen bei Till. Bitte bestätige deine E-Mail-Adresse.`,
    action: 'E-Mail bestätigen',
    outro: 'Der Link gilt 24 Stunden. Wenn du dich nicht registriert hast, ignoriere diese Nachricht.',
  }),
  reset: ({ name }) => ({
    subject: 'Setze dein Till-Passwort zurück',
    intro: `Hallo ${name}, jemand möchte das Passwort deines Till-Kontos zurücksetzen.`,
    action: 'Neues Passwort wählen',
    outro: 'Der Link gilt 1 Stunde. Warst du es nicht, ignoriere diese Nachricht: dein Passwort bleibt unverändert.',
  }),
  email_change_notice: ({ name, newEmail }) => ({
    subject: 'Deine Till-E-Mail-Adresse wird geändert',
    intro: `Hallo ${name}, es wurde eine Änderung der E-Mail-Adresse deines Kontos auf ${newEmail ?? ''} angefragt.`,
    outro: 'Sie gilt, sobald die neue Adresse bestätigt ist. Warst du es nicht, ändere jetzt dein Passwort.',
  }),
  email_change_confirm: ({ name }) => ({
    subject: 'Bestätige deine neue E-Mail-Adresse für Till',
    intro: `Hallo ${name}, bitte bestätige diese Adresse als neue E-Mail deines Till-Kontos.`,
    action: 'Neue E-Mail bestätigen',
    outro: 'Der Link gilt 24 Stunden.',
  }),
  new_device: ({ name, device, ip, at }) => ({
    subject: 'Neue Anmeldung bei deinem Till-Konto',
    intro: `Hallo ${name}, bei deinem Till-Konto hat sich ein bisher unbekanntes Gerät angemeldet: ${device ?? ''}, Adresse ${ip ?? ''}, am ${at ?? ''}.`,
    outro:
      'Warst du es, ist nichts zu tun. Wenn nicht, ändere jetzt dein Passwort und beende deine anderen Sitzungen im Profil.',
  }),
  second_factor_reset: ({ name }) => ({
    subject: 'Der zweite Faktor deines Till-Kontos wurde abgeschaltet',
    intro: `Hallo ${name}, ein Administrator hat die Anmeldung in zwei Schritten für dein Till-Konto auf Anfrage abgeschaltet.`,
    outro:
      'Du meldest dich nun nur mit dem Passwort an, bis du im Profil einen neuen Authenticator einrichtest. Hast du das nicht angefragt, melde dich sofort bei uns.',
  }),
  social_link: ({ name, provider }) => ({
    subject: `${provider ?? ''} mit deinem Till-Konto verknüpfen`,
    intro: `Hallo ${name}, bei einer Anmeldung mit ${provider ?? ''} wurde gebeten, es mit deinem Till-Konto zu verknüpfen. Folge dem Link, um es zu erlauben.`,
    action: `${provider ?? ''} verknüpfen`,
    outro: 'Der Link gilt 24 Stunden. Warst du es nicht, ignoriere diese Nachricht: Es wird nichts verknüpft.',
  }),
  account_deleted: ({ name }) => ({
    subject: 'Dein Till-Konto wurde gelöscht',
    intro: `Hallo ${name}, dein Till-Konto wurde gelöscht: Sitzungen, Passkeys, Dateien und persönliche Angaben sind entfernt.`,
    outro:
      'Bestellungen und Credit-Buchungen bleiben ohne deinen Namen und deine Adresse erhalten, wie es die Buchhaltung verlangt. Hast du das nicht veranlasst, antworte auf diese Nachricht.',
  }),
  security_notice: (v) => ({
    subject: 'Eine Änderung an deinem Till-Konto',
    intro: `Hallo ${v.name}, ${changeText(deChanges, v)}${v.at ? ` (${v.at})` : ''}.`,
    action: 'Das war ich nicht: Passwort zurücksetzen',
    outro:
      'Warst du es, ist nichts zu tun. Wenn nicht, setze mit dem Link oben dein Passwort zurück: das beendet alle Sitzungen und entfernt alle Passkeys.',
  }),
};

// The languages mails are written in; any other `lang` falls back to English.
const catalogs: Record<string, Catalog> = { en, de };

/** Renders a mail in the language closest to `lang`. */
export function renderMail(
  kind: MailKind,
  lang: string,
  values: { name: string } & MailValues,
): { subject: string; text: string; html: string } {
  const base = lang.toLowerCase().split('-')[0] ?? 'en';
  const catalog = catalogs[base] ?? en;
  const t = catalog[kind](values);
  const link = values.link;
  const text = [t.intro, link ? `${t.action ?? ''}: ${link}` : '', t.outro].filter(Boolean).join('\n\n');
  const button = link
    ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1b5e20;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(t.action ?? link)}</a></p><p style="font-size:12px;color:#555">${escapeHtml(link)}</p>`
    : '';
  const html = `<!doctype html><html lang="${escapeHtml(base)}"><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(t.intro)}</p>${button}<p>${escapeHtml(t.outro)}</p></body></html>`;
  return { subject: t.subject, text, html };
}
