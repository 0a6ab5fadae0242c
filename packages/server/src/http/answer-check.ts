import { isDeepStrictEqual } from 'node:util';
import { Code, errorResponse } from '@till/protocol';
import type { z } from 'zod';

/**
 * Checks every answer a call sends against the schema the call declares (and every failure against
 * the protocol's error bodies), so that the OpenAPI document, which is built from those schemas,
 * cannot drift from the wire. Tests switch it on for every app they build; what it finds is kept
 * and the test app refuses to close cleanly while anything is found.
 */
export class AnswerCheck {
  readonly drift: string[] = [];

  check(path: string, declared: z.ZodType | undefined, body: Record<string, unknown>): void {
    const schema = body.code === Code.Ok ? declared : errorResponse;
    if (!schema) {
      this.note(path, 'declares no response schema');
      return;
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.note(path, `answered ${JSON.stringify(body).slice(0, 300)}: ${issue?.path.join('.')} ${issue?.message}`);
      return;
    }
    // Zod drops keys a schema does not name: a field the document does not describe is drift too.
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), JSON.parse(JSON.stringify(body)))) {
      this.note(path, `answered fields its schema does not describe: ${JSON.stringify(body).slice(0, 300)}`);
    }
  }

  private note(path: string, what: string): void {
    if (this.drift.length < 50) this.drift.push(`${path} ${what}`);
  }
}
