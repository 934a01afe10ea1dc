export const arrivalsDeparturesRoute = '/arrivals-departures';

export const toArrivalsDepartures = (): string => arrivalsDeparturesRoute;
