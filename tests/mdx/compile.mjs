// Compiles each MDX file named on the command line as a docs site would (remark-math for
// $…$ and $$…$$); prints "path: reason" for each that does not compile, exits 1 if any.
import {compile} from '@mdx-js/mdx'
import remarkMath from 'remark-math'
import {readFile} from 'node:fs/promises'

let failed = 0
for (const path of process.argv.slice(2)) {
  try {
    await compile(await readFile(path, 'utf8'), {remarkPlugins: [remarkMath]})
  } catch (error) {
    failed += 1
    console.error(`${path}: ${error.message}`)
  }
}
process.exit(failed ? 1 : 0)
