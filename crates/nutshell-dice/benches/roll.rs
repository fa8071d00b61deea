//! Criterion benchmarks of parse-once roll throughput.
//!
//! `cargo bench -p nutshell-dice --bench roll`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nutshell_dice::source::{ChaCha8, below};
use nutshell_dice::{Expression, Seeded};
use std::hint::black_box;

fn roll_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("roll");
    group.throughput(Throughput::Elements(1));
    for text in ["4d6kh3+2", "10d6!", "8d10>=7", "{3d6, 2d8+1}kh1"] {
        let expr = Expression::parse(text).unwrap();
        let mut roller = expr.roller();
        let mut dice = Seeded::new(1);
        group.bench_function(text, |b| {
            b.iter(|| black_box(roller.roll(&mut dice).unwrap()))
        });
    }
    let mut rng = ChaCha8::from_seed(1);
    // The same loop as examples/throughput.rs's baseline: each program
    // stands alone.
    group.bench_function("baseline 4d6kh3+2 (hand-written loop)", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            let mut lowest = i64::MAX;
            for _ in 0..4 {
                let face = i64::from(below(&mut rng, 6)) + 1;
                sum += face;
                lowest = lowest.min(face);
            }
            black_box(sum - lowest + 2)
        })
    });
    group.finish();
}

fn parse(c: &mut Criterion) {
    c.bench_function("parse 4d6kh3+2", |b| {
        b.iter(|| Expression::parse(black_box("4d6kh3+2")).unwrap())
    });
}

criterion_group!(benches, roll_throughput, parse);
criterion_main!(benches);
