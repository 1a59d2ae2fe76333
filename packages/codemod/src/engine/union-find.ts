/** Disjoint sets of strings (file paths): which files must be decided together. */
export class UnionFind {
  private readonly parent = new Map<string, string>();
  add(a: string): void {
    if (!this.parent.has(a)) this.parent.set(a, a);
  }
  find(a: string): string {
    this.add(a);
    let root = a;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    this.parent.set(a, root);
    return root;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
  members(a: string): string[] {
    const root = this.find(a);
    return [...this.parent.keys()].filter((k) => this.find(k) === root);
  }
}
