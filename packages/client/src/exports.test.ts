import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as testing from '@till/client/testing';
import * as sdk from './index.js';

// The SDK's promise to third parties: every public name carries a doc comment with an example.
const mainEntry = fileURLToPath(new URL('./index.ts', import.meta.url));
const testingEntry = fileURLToPath(new URL('./testing.ts', import.meta.url));

function publicDeclarations(entry = mainEntry) {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`${entry} not found`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry} has no exports`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0];
    const tags = declaration ? ts.getJSDocTags(declaration).map((t) => t.tagName.text) : [];
    // A `const` keeps its doc comment on the statement, not on the variable.
    const statement = declaration && ts.isVariableDeclaration(declaration) ? declaration.parent.parent : undefined;
    const statementTags = statement ? ts.getJSDocTags(statement).map((t) => t.tagName.text) : [];
    const docs = target.getDocumentationComment(checker).length > 0;
    return { name: symbol.getName(), docs, example: [...tags, ...statementTags].includes('example') };
  });
}

describe('public API', () => {
  const declarations = publicDeclarations();

  it('exports the entry point and the main classes', () => {
    const names = declarations.map((d) => d.name);
    for (const name of [
      'createTill',
      'ApiClient',
      'StoreClient',
      'Session',
      'CallQueue',
      'OrderPoller',
      'PurchaseFlow',
    ]) {
      expect(names).toContain(name);
    }
    expect(typeof sdk.createTill).toBe('function');
  });

  // A name added here is a promise to every app: add one when an app needs it, not because a part has it.
  it('exports exactly the names apps use and the extension points', () => {
    expect(declarations.map((d) => d.name).sort()).toEqual(
      [
        'createTill',
        'Till',
        'TillOptions',
        'ApiClient',
        'ApiClientOptions',
        'StepUpHandler',
        'PasskeysApi',
        'SocialApi',
        'BackupsApi',
        'DeletionFields',
        'StoreClient',
        'StoreClientOptions',
        'Session',
        'SessionEvent',
        'SessionEndReason',
        'SessionOptions',
        'preferencesStorage',
        'memoryStorage',
        'SessionStorage',
        'CallQueue',
        'CallQueueOptions',
        'OrderPoller',
        'OrderPollerOptions',
        'PurchaseFlow',
        'PurchaseFlowOptions',
        'PurchaseProduct',
        'PurchaseResult',
        'RestoreResult',
        'StoreMessage',
        'StoreAdapter',
        'StoreAdapterEvent',
        'StoreProductDefinition',
        'AdapterProductState',
        'AdapterTransaction',
        'AdapterOrderResult',
        'CdvPurchaseAdapter',
        'CdvPlatform',
        'CdvPurchaseAdapterOptions',
        'Answer',
        'DataAnswer',
        'ClientFailure',
        'OrderStatusData',
        'TillError',
        'HttpError',
        'TimeoutError',
        'NetworkError',
        'BodyError',
        'DroppedError',
      ].sort(),
    );
  });

  it('documents every export with a doc comment and an example', () => {
    const missing = declarations.filter((d) => !d.docs || !d.example).map((d) => d.name);
    expect(missing).toEqual([]);
  });

  it('offers its test double from the testing entry, documented, and not from the main one', () => {
    const doubles = publicDeclarations(testingEntry);
    expect(doubles.map((d) => d.name).sort()).toEqual(['FakeOrderOutcome', 'FakeStoreAdapter', 'FakeStoreOptions']);
    expect(doubles.filter((d) => !d.docs || !d.example).map((d) => d.name)).toEqual([]);
    expect(typeof testing.FakeStoreAdapter).toBe('function');
    expect('FakeStoreAdapter' in sdk).toBe(false);
  });
});
