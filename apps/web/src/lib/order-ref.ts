// The server's mails name orders the same way: the reference is the protocol's.
export { orderRef } from '@till/protocol';
