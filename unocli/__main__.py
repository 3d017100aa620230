from unocli.cli.main import main

main()
