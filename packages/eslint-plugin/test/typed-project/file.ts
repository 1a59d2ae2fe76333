// Placeholder: the type-aware RuleTester lints its cases as this file.
export {};
