/**
 * TEMPORARY stand-in for the API's router type, used only while `apps/api/dist/trpc/app-router.d.ts`
 * does not exist yet. tsconfig `paths` tries the API's emitted file first and falls back to this
 * one, so once the API builds, its real type wins. Delete this file (and the fallback entry in
 * tsconfig.json) when the API's router type is stable.
 */
import type {
  TRPCBuiltRouter,
  TRPCDefaultErrorData,
  TRPCMutationProcedure,
  TRPCQueryProcedure,
  TRPCSubscriptionProcedure,
  TRPC_ERROR_CODE_NUMBER,
} from '@trpc/server';
import type {
  TAccount,
  TAccountListItem,
  TCreateAccountInput,
  TCurrentAccount,
  TListAccountsInput,
  TLiveMessage,
  TPage,
} from '@rollcall/contracts';

interface ApiErrorData extends TRPCDefaultErrorData {
  apiError: { code: string; message: string; fields?: Record<string, string[]> } | null;
}

interface Root {
  ctx: object;
  meta: object;
  errorShape: { message: string; code: TRPC_ERROR_CODE_NUMBER; data: ApiErrorData };
  transformer: false;
}

export type AppRouter = TRPCBuiltRouter<
  Root,
  {
    auth: {
      signIn: TRPCMutationProcedure<{
        meta: object;
        input: { username: string; password: string };
        output: { token: string; account: TCurrentAccount };
      }>;
      signOut: TRPCMutationProcedure<{ meta: object; input: void; output: { ok: true } }>;
      me: TRPCQueryProcedure<{ meta: object; input: void; output: TCurrentAccount }>;
    };
    accounts: {
      list: TRPCQueryProcedure<{ meta: object; input: TListAccountsInput; output: TPage<TAccountListItem> }>;
      create: TRPCMutationProcedure<{ meta: object; input: TCreateAccountInput; output: { id: string } }>;
      statuses: TRPCQueryProcedure<{ meta: object; input: void; output: Array<{ id: number; label: string }> }>;
      byId: TRPCQueryProcedure<{ meta: object; input: { id: string }; output: TAccount }>;
    };
    policies: {
      list: TRPCQueryProcedure<{ meta: object; input: void; output: Array<{ id: string; title: string }> }>;
    };
    live: {
      accounts: TRPCSubscriptionProcedure<{ meta: object; input: void; output: AsyncIterable<TLiveMessage, void, unknown> }>;
    };
  }
>;
