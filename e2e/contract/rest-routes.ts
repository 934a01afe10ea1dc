import { AppModule } from '../../apps/api/src/app.module';
import type { AppConfig } from '../../apps/api/src/platform/config/app-config';
import { controllersOfModule, describedRoutes } from '../../apps/api/src/platform/http/openapi/described-routes';

/**
 * Every REST route, as the controllers of the composition root declare it with its `@Documented`
 * description (docs/adr/0023): the list the contract suite calls and docs/api/compat.md is checked
 * against. Read from the module declarations, before any app starts (the config only travels into
 * a provider, so none is needed to read them).
 */
export const REST_ROUTES = describedRoutes(controllersOfModule(AppModule.forRoot({} as AppConfig)));
