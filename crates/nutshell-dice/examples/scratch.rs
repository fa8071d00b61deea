use nutshell_dice::*;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let expr = &args[0];
    match Expression::parse(expr) {
        Err(e) => println!("{}", e.render(expr)),
        Ok(e) => {
            let mut src: Box<dyn DiceSource> = if args.len() > 1 { Box::new(Scripted::parse_list(&args[1]).unwrap()) } else { Box::new(Seeded::new(1)) };
            match e.roll(&mut src) {
                Ok(r) => println!("{}", r.render()),
                Err(err) => println!("{}", err.render(expr)),
            }
        }
    }
}
