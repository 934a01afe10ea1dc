import { type DynamicModule, type ForwardReference, RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IS_PUBLIC } from '../../access/route-decorators';
import { REST_DESCRIPTION, type RestDescription } from './rest-description';

/** Where a route answers: v1, v2, and v2 again unprefixed. */
export type RestPrefix = '/api/v1' | '/api/v2' | '/api';
export type RestMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A REST route as its controllers declare it, with its description (docs/adr/0023). */
export interface DescribedRoute {
  method: RestMethod;
  /** the path after the prefix, OpenAPI style: `account/{id}`, `reader/scans` */
  path: string;
  /** the prefixes it answers under, in the order /api/v1, /api/v2, /api */
  prefixes: RestPrefix[];
  /** the success status (`@HttpCode`, else Nest's default: 201 for POST, 200 for the rest) */
  status: number;
  /** `@Public()`: no session needed */
  public: boolean;
  description: RestDescription;
  /** `Controller.method` of its handler, for messages */
  handler: string;
}

const METHODS: Partial<Record<RequestMethod, RestMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};
const PREFIX_ORDER: RestPrefix[] = ['/api/v1', '/api/v2', '/api'];

const segments = (...parts: string[]) => parts.flatMap((part) => part.split('/')).filter(Boolean);
const asList = (value: string | string[] | undefined): string[] => (Array.isArray(value) ? value : [value ?? '']);

/** `api/v2/account/:id` -> prefix `/api/v2` and path `account/{id}`; null outside /api */
function splitPrefix(parts: string[]): { prefix: RestPrefix; path: string } | null {
  if (parts[0] !== 'api') return null;
  const versioned = parts[1] === 'v1' || parts[1] === 'v2';
  const rest = parts.slice(versioned ? 2 : 1).map((part) => part.replace(/^:(\w+)$/, '{$1}'));
  return { prefix: versioned ? (`/api/${parts[1]}` as RestPrefix) : '/api', path: rest.join('/') };
}

/** The route handlers of a controller class, its own and those it inherits (the v1/v2 pattern). */
function handlersOf(controller: Type): Array<[string, (...args: unknown[]) => unknown]> {
  const found = new Map<string, (...args: unknown[]) => unknown>();
  for (let prototype = controller.prototype; prototype && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      // the most derived definition wins, as in Nest's own scan; getters are never handlers
      if (name === 'constructor' || found.has(name) || typeof descriptor?.value !== 'function') continue;
      found.set(name, descriptor.value as (...args: unknown[]) => unknown);
    }
  }
  return [...found].filter(([, handler]) => Reflect.getMetadata(PATH_METADATA, handler) !== undefined);
}

/**
 * Every route of these controllers that answers under /api/v1 or /api/v2, grouped by method and
 * path across the prefixes it is served on, each with its `@Documented` description. Routes outside
 * them (health, metrics, the API's own documents under /api alone) are not REST API routes. Throws,
 * naming each one, when a route has no description or two handlers of one route describe it
 * differently: the description is what makes a route part of the documented API.
 */
export function describedRoutes(controllers: readonly Type[]): DescribedRoute[] {
  const routes = new Map<string, DescribedRoute & { descriptions: Set<RestDescription | undefined> }>();
  for (const controller of controllers) {
    const controllerPaths = asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    const controllerPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
    for (const [name, handler] of handlersOf(controller)) {
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const description = Reflect.getMetadata(REST_DESCRIPTION, handler) as RestDescription | undefined;
      for (const controllerPath of controllerPaths) {
        for (const handlerPath of asList(Reflect.getMetadata(PATH_METADATA, handler) as string | string[])) {
          const place = splitPrefix(segments(controllerPath, handlerPath));
          if (!place) continue;
          const method = METHODS[requestMethod];
          if (!method) throw new Error(`${controller.name}.${name}: ${RequestMethod[requestMethod]} is not a method the REST description knows`);
          const key = `${method} ${place.path}`;
          const route = routes.get(key) ?? {
            method,
            path: place.path,
            prefixes: [],
            status: (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'post' ? 201 : 200),
            public: controllerPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true,
            description: description as RestDescription,
            handler: `${controller.name}.${name}`,
            descriptions: new Set<RestDescription | undefined>(),
          };
          route.descriptions.add(description);
          if (!route.prefixes.includes(place.prefix)) route.prefixes.push(place.prefix);
          routes.set(key, route);
        }
      }
    }
  }
  const api = [...routes.values()].filter((route) => route.prefixes.some((prefix) => prefix !== '/api'));
  const problems = api.flatMap((route) =>
    route.descriptions.has(undefined) ? [`${route.method.toUpperCase()} ${route.path} (${route.handler}) has no @Documented`] : route.descriptions.size > 1 ? [`${route.method.toUpperCase()} ${route.path} (${route.handler}) is described twice, differently`] : [],
  );
  if (problems.length) throw new Error(`Every REST route is described once with @Documented (docs/adr/0023):\n${problems.join('\n')}`);
  return api.map(({ descriptions: _descriptions, ...route }) => ({ ...route, prefixes: PREFIX_ORDER.filter((prefix) => route.prefixes.includes(prefix)) }));
}

type ModuleEntry = Type | DynamicModule | ForwardReference | Promise<DynamicModule>;

/**
 * The controllers of a module and of everything it imports, read from the module declarations
 * alone (no app started): what the contract suite and compat.md's check list the routes from before
 * any test runs. At run time the OpenAPI controller reads Nest's own container instead.
 */
export function controllersOfModule(root: Type | DynamicModule): Type[] {
  const controllers: Type[] = [];
  const visited = new Set<unknown>();
  const visit = (entry: ModuleEntry | undefined): void => {
    if (!entry || visited.has(entry)) return;
    visited.add(entry);
    if (entry instanceof Promise) throw new Error('controllersOfModule: an asynchronous module cannot be read without starting the app');
    if ('forwardRef' in entry) return visit(entry.forwardRef() as ModuleEntry);
    const dynamic = 'module' in entry ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : (entry as Type);
    const declared = (key: string) => (Reflect.getMetadata(key, moduleClass) as unknown[] | undefined) ?? [];
    for (const controller of [...declared(MODULE_METADATA.CONTROLLERS), ...(dynamic?.controllers ?? [])] as Type[]) if (!controllers.includes(controller)) controllers.push(controller);
    for (const imported of [...declared(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])] as ModuleEntry[]) visit(imported);
  };
  visit(root);
  return controllers;
}
