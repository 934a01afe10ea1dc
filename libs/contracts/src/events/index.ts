export * from "./upcasters";
export * from "./personal-data";
export * from "./event-redaction";
