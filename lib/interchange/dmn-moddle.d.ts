/**
 * Types for dmn-moddle (bpmn-io's DMN model), which ships none: the part of
 * its API the DMN format uses. A model element is open-ended (moddle reads
 * any attribute and extension it does not know into it), so the DMN format
 * names the properties it reads in its own interfaces and treats the rest as
 * unknown.
 */
declare module 'dmn-moddle' {
  export interface ModdleElement {
    readonly $type: string;
    /** Attributes the model does not know, and namespace declarations, by qualified name. */
    readonly $attrs: Record<string, string>;
    $parent?: ModdleElement;
    $instanceOf(type: string): boolean;
    [property: string]: unknown;
  }

  export interface ParseWarning {
    message: string;
    error?: Error;
    property?: string;
    value?: unknown;
  }

  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: ParseWarning[];
    elementsById: Record<string, ModdleElement>;
  }

  /** A moddle package: a vocabulary of types bound to a namespace URI. */
  export interface Package {
    name: string;
    prefix: string;
    uri: string;
    xml?: { tagAlias?: string };
    types: unknown[];
    enumerations?: unknown[];
    associations?: unknown[];
  }

  export interface DmnModdleInstance {
    fromXML(xml: string, options?: { lax?: boolean }): Promise<ParseResult>;
    toXML(element: ModdleElement, options?: { format?: boolean }): Promise<{ xml: string }>;
    create(type: string, properties?: Record<string, unknown>): ModdleElement;
  }

  /** A DMN model with its own packages plus `additional` ones (a package given under a built-in key replaces it). */
  export function DmnModdle(additional?: Record<string, Package>, options?: Record<string, unknown>): DmnModdleInstance;
}
