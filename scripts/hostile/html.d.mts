export function deepHtml(depth: number, opts?: { text?: string; tag?: string; close?: boolean }): string;
export function wideHtml(elements: number, opts?: { tag?: string; text?: string }): string;
export function deepXml(depth: number, opts?: { tag?: string }): string;
export const TEXT_CAP: number;
export function textCases(): { name: string; text: string }[];
