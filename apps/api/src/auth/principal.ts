/** Who a request acts as, once authenticated. Access tokens and readers join later. */
export interface Principal {
  kind: 'session';
  accountId: string;
  sessionId: string;
}
