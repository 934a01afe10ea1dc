export * from "./upcasters";
export * from "./personal-data";
