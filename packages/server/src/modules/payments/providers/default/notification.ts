/** The sandbox's own notification: what the checkout page posts, signed with the server's secret. */
export interface SandboxEvent {
  eventId: string;
  orderId: string;
  outcome: 'paid' | 'failed';
  amount: number;
  currency: string;
}
