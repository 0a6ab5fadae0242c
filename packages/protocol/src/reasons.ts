import { z } from 'zod';
import { ConflictReason, CouponReason, InputReason, PaymentReason } from './codes.js';

/**
 * The closed lists of failure reasons, as the error bodies carry them (`responses.ts`): the server
 * builds its failures from these types (an unknown reason does not compile), the SDK and the web app
 * read them, and the OpenAPI document lists them.
 *
 * @example
 * inputReasonSchema.options // ['required', 'invalid', ...]
 */
export const inputReasonSchema = z.enum(InputReason);
/** 908's reasons. */
export const couponReasonSchema = z.enum(CouponReason);
/** 910's reasons. */
export const paymentReasonSchema = z.enum(PaymentReason);
/** 912's reasons, besides its `status`. */
export const conflictReasonSchema = z.enum(ConflictReason);
